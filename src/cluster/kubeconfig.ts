/**
 * Kubeconfig files to usable contexts: `--kubeconfig`, else every path of `KUBECONFIG` merged (as
 * kubectl merges them, the first file winning), else `~/.kube/config`. Each context gets a
 * KubeConfig of its own, because client-node reads credentials from the current context at every
 * request and must never switch contexts under a running call.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { UserError } from '../diagnostics/user-error.js';

export interface ContextInfo {
  name: string;
  cluster: string;
  server: string;
  namespace?: string;
  user: string;
}

export interface Kubeconfig {
  /** Where the contexts came from, for messages. */
  files: string[];
  contexts: ContextInfo[];
  current?: string;
  /** A KubeConfig holding only `context`, with it current. */
  configFor(context: string): KubeConfig;
}

export function kubeconfigPaths(explicit?: string, env: NodeJS.ProcessEnv = process.env): string[] {
  if (explicit) return [path.resolve(explicit)];
  const fromEnv = (env.KUBECONFIG ?? '').split(path.delimiter).filter(Boolean);
  if (fromEnv.length) return fromEnv.map((p) => path.resolve(p));
  return [path.join(os.homedir(), '.kube', 'config')];
}

function loadOne(file: string): KubeConfig {
  if (!fs.existsSync(file)) {
    throw new UserError(
      `the kubeconfig ${file} does not exist; pass another with --kubeconfig, set KUBECONFIG, or use --sandbox to run against kdeck's own clusters`,
    );
  }
  const kc = new KubeConfig();
  try {
    kc.loadFromFile(file);
  } catch (e) {
    const reason = e instanceof Error ? e.message.split('\n')[0] : String(e);
    throw new UserError(
      `the kubeconfig ${file} cannot be read: ${reason}; check it with \`kubectl config view --kubeconfig ${file}\``,
    );
  }
  return kc;
}

export function loadKubeconfig(explicit?: string, env: NodeJS.ProcessEnv = process.env): Kubeconfig {
  const files = kubeconfigPaths(explicit, env).filter((f, i, all) => all.indexOf(f) === i);
  // a missing file in a KUBECONFIG list is skipped, as kubectl does; a missing --kubeconfig is not
  const present = explicit ? files : files.filter((f) => fs.existsSync(f));
  if (present.length === 0) {
    throw new UserError(
      `no kubeconfig found (looked at ${files.join(', ')}); pass one with --kubeconfig, set KUBECONFIG, or use --sandbox to run against kdeck's own clusters`,
    );
  }
  const [first, ...rest] = present.map(loadOne);
  // earlier files win, for the current context and for entries defined twice
  for (const kc of rest) {
    for (const c of kc.getContexts()) {
      if (first.getContextObject(c.name)) continue;
      const cluster = kc.getCluster(c.cluster);
      const user = kc.getUser(c.user);
      const merged = new KubeConfig();
      merged.loadFromOptions({
        clusters: cluster && !first.getCluster(cluster.name) ? [cluster] : [],
        users: user && !first.getUser(user.name) ? [user] : [],
        contexts: [c],
        currentContext: '',
      });
      first.mergeConfig(merged, true);
    }
  }
  const contexts: ContextInfo[] = [];
  for (const c of first.getContexts()) {
    const cluster = first.getCluster(c.cluster);
    if (!cluster) continue;
    contexts.push({
      name: c.name,
      cluster: c.cluster,
      server: cluster.server,
      user: c.user,
      ...(c.namespace ? { namespace: c.namespace } : {}),
    });
  }
  const current = first.getCurrentContext();
  return {
    files: present,
    contexts,
    ...(current && contexts.some((c) => c.name === current) ? { current } : {}),
    configFor(name: string): KubeConfig {
      const context = first.getContextObject(name);
      const cluster = context ? first.getCluster(context.cluster) : null;
      if (!context || !cluster) {
        const known = contexts.map((c) => c.name).join(', ') || 'none';
        throw new UserError(
          `there is no context ${name} in ${present.join(', ')} (contexts: ${known}); pick one of them with --context, or name it in stack.yaml as cluster:`,
        );
      }
      const user = first.getUser(context.user);
      const kc = new KubeConfig();
      kc.loadFromOptions({ clusters: [cluster], users: user ? [user] : [], contexts: [context], currentContext: name });
      return kc;
    },
  };
}
