/**
 * Kubeconfig files to usable contexts: `--kubeconfig`, else every path of `KUBECONFIG` merged (as
 * kubectl merges them: for each name and for the current context, the first file to give one
 * wins), else `~/.kube/config`. Each context gets its own ContextAccess: its server, and what a
 * request to it carries (token, basic auth, client certificate, CA, impersonation).
 *
 * The files are read here, not by client-node: loading client-node takes longer than a small
 * apply takes to run (its generated API models come with its KubeConfig), and static
 * credentials need none of it. Only a user with an exec plugin or an auth provider (cloud
 * logins, OIDC) loads it, the first time a request needs the credentials, and client-node runs
 * the plugin as kubectl would.
 */
import fs from 'node:fs';
import type https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import YAML from 'yaml';
import { UserError } from '../diagnostics/user-error.js';
import { importPackage } from '../import-package.js';

type ClientNode = typeof import('@kubernetes/client-node');

export interface ContextInfo {
  name: string;
  cluster: string;
  server: string;
  namespace?: string;
  user: string;
}

/** What a request to the cluster of one context needs. */
export interface ContextAccess {
  readonly context: string;
  /** The server's URL, without a trailing slash. */
  readonly server: string;
  /** The context's namespace, when it names one. */
  readonly namespace?: string;
  /** Whether a plugin (exec, auth-provider) hands out the credentials when a call needs them. */
  readonly usesPlugin: boolean;
  /** Puts the credentials (headers, client certificate) and TLS settings on a request's options. */
  authorize(options: https.RequestOptions): Promise<void>;
}

export interface Kubeconfig {
  /** Where the contexts came from, for messages. */
  files: string[];
  contexts: ContextInfo[];
  current?: string;
  /** How to reach the cluster of `context`. */
  configFor(context: string): ContextAccess;
}

type Entry = Record<string, unknown>;

/** A named entry of a kubeconfig list, with the folder of the file it came from (relative paths start there). */
interface Named {
  name: string;
  body: Entry;
  dir: string;
}

interface ConfigFile {
  clusters: Named[];
  users: Named[];
  contexts: Named[];
  current?: string;
}

export function kubeconfigPaths(explicit?: string, env: NodeJS.ProcessEnv = process.env): string[] {
  if (explicit) return [path.resolve(explicit)];
  const fromEnv = (env.KUBECONFIG ?? '').split(path.delimiter).filter(Boolean);
  if (fromEnv.length) return fromEnv.map((p) => path.resolve(p));
  return [path.join(os.homedir(), '.kube', 'config')];
}

const isEntry = (x: unknown): x is Entry => typeof x === 'object' && x !== null && !Array.isArray(x);

/** The entries of one list (`clusters`, `users`, `contexts`), each with the body under `field`. */
function namedList(doc: Entry, list: string, field: string, dir: string): Named[] {
  const items = doc[list];
  if (items === undefined || items === null) return [];
  if (!Array.isArray(items)) throw new Error(`${list} is not a list`);
  return items.map((item, i) => {
    if (!isEntry(item) || typeof item.name !== 'string' || !item.name) throw new Error(`${list}[${i}].name is missing`);
    const body = item[field] ?? {};
    if (!isEntry(body)) throw new Error(`${list}[${i}].${field} is not a mapping`);
    if (list === 'clusters' && typeof body.server !== 'string')
      throw new Error(`${list}[${i}].${field}.server is missing`);
    return { name: item.name, body, dir };
  });
}

function loadOne(file: string): ConfigFile {
  if (!fs.existsSync(file)) {
    throw new UserError(
      `the kubeconfig ${file} does not exist; pass another with --kubeconfig, set KUBECONFIG, or use --sandbox to run against kdeck's own clusters`,
    );
  }
  try {
    const doc: unknown = YAML.parse(fs.readFileSync(file, 'utf8')) ?? {};
    if (!isEntry(doc)) throw new Error('it is not a mapping');
    const dir = path.dirname(file);
    const current = doc['current-context'];
    return {
      clusters: namedList(doc, 'clusters', 'cluster', dir),
      users: namedList(doc, 'users', 'user', dir),
      contexts: namedList(doc, 'contexts', 'context', dir),
      ...(typeof current === 'string' && current ? { current } : {}),
    };
  } catch (e) {
    const reason = e instanceof Error ? e.message.split('\n')[0] : String(e);
    throw new UserError(
      `the kubeconfig ${file} cannot be read: ${reason}; check it with \`kubectl config view --kubeconfig ${file}\``,
    );
  }
}

const text = (x: unknown): string | undefined => (typeof x === 'string' && x ? x : undefined);

/** A file named by the kubeconfig, relative to the folder of the file that names it. */
const fileIn = (dir: string, name: unknown): string | undefined =>
  text(name) === undefined ? undefined : path.resolve(dir, name as string);

/** The contents of `<field>` (a file) or `<field>-data` (base64), as client-node and kubectl read them. */
function fileOrData(entry: Named, field: string): Buffer | undefined {
  const file = fileIn(entry.dir, entry.body[field]);
  if (file) return fs.readFileSync(file);
  const data = text(entry.body[`${field}-data`]);
  return data ? Buffer.from(data, 'base64') : undefined;
}

/** The request options static credentials give: everything a user without a plugin has. */
function staticOptions(cluster: Named, user: Named | undefined): https.RequestOptions {
  const options: https.RequestOptions = {};
  const headers: Record<string, string> = {};
  if (cluster.body['insecure-skip-tls-verify'] === true) options.rejectUnauthorized = false;
  const serverName = text(cluster.body['tls-server-name']);
  if (serverName) options.servername = serverName;
  const ca = fileOrData(cluster, 'certificate-authority');
  if (ca) options.ca = ca;
  if (user) {
    const cert = fileOrData(user, 'client-certificate');
    if (cert) options.cert = cert;
    const key = fileOrData(user, 'client-key');
    if (key) options.key = key;
    const tokenFile = fileIn(user.dir, user.body['token-file']);
    const token = text(user.body.token) ?? (tokenFile ? fs.readFileSync(tokenFile, 'utf8').trim() : undefined);
    if (token) headers.Authorization = `Bearer ${token}`;
    const username = text(user.body.username);
    if (username) options.auth = `${username}:${text(user.body.password) ?? ''}`;
    const as = text(user.body.as);
    if (as) headers['Impersonate-User'] = as;
  }
  options.headers = headers;
  return options;
}

/** A kubeconfig of one context, its paths made absolute: what client-node loads for a plugin user. */
function singleContextText(name: string, context: Named, cluster: Named, user: Named): string {
  const absolute = (entry: Named, fields: string[]) => {
    const body = { ...entry.body };
    for (const f of fields) if (text(body[f])) body[f] = path.resolve(entry.dir, body[f] as string);
    return body;
  };
  return YAML.stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: cluster.name, cluster: absolute(cluster, ['certificate-authority']) }],
    users: [{ name: user.name, user: absolute(user, ['client-certificate', 'client-key', 'token-file']) }],
    contexts: [{ name, context: context.body }],
    'current-context': name,
  });
}

function access(name: string, context: Named, cluster: Named, user: Named | undefined): ContextAccess {
  const server = String(cluster.body.server).replace(/\/$/, '');
  const namespace = text(context.body.namespace);
  const pluginUser = user && (isEntry(user.body.exec) || isEntry(user.body['auth-provider'])) ? user : undefined;
  let fixed: https.RequestOptions | undefined;
  let viaClientNode: Promise<(o: https.RequestOptions) => Promise<void>> | undefined;
  return {
    context: name,
    server,
    ...(namespace ? { namespace } : {}),
    usesPlugin: pluginUser !== undefined,
    async authorize(options) {
      if (pluginUser) {
        // client-node keeps the plugin's credential until it expires, so one KubeConfig serves every request
        viaClientNode ??= importPackage<ClientNode>('@kubernetes/client-node').then(({ KubeConfig }) => {
          const kc = new KubeConfig();
          kc.loadFromString(singleContextText(name, context, cluster, pluginUser));
          return (o) => kc.applyToHTTPSOptions(o);
        });
        await (
          await viaClientNode
        )(options);
        return;
      }
      fixed ??= staticOptions(cluster, user);
      const { headers, ...rest } = fixed;
      Object.assign(options, rest);
      options.headers = { ...(options.headers as Record<string, string> | undefined), ...headers };
    },
  };
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
  const loaded = present.map(loadOne);
  // earlier files win, for the current context and for entries defined twice
  const byName = (list: 'clusters' | 'users' | 'contexts') => {
    const found = new Map<string, Named>();
    for (const f of loaded) for (const e of f[list]) if (!found.has(e.name)) found.set(e.name, e);
    return found;
  };
  const clusters = byName('clusters');
  const users = byName('users');
  const contextEntries = byName('contexts');
  const contexts: ContextInfo[] = [];
  for (const c of contextEntries.values()) {
    const cluster = clusters.get(String(c.body.cluster ?? ''));
    if (!cluster) continue;
    const namespace = text(c.body.namespace);
    contexts.push({
      name: c.name,
      cluster: cluster.name,
      server: String(cluster.body.server).replace(/\/$/, ''),
      user: String(c.body.user ?? ''),
      ...(namespace ? { namespace } : {}),
    });
  }
  const current = loaded.find((f) => f.current)?.current;
  return {
    files: present,
    contexts,
    ...(current && contexts.some((c) => c.name === current) ? { current } : {}),
    configFor(name: string): ContextAccess {
      const context = contextEntries.get(name);
      const cluster = context ? clusters.get(String(context.body.cluster ?? '')) : undefined;
      if (!context || !cluster) {
        const known = contexts.map((c) => c.name).join(', ') || 'none';
        throw new UserError(
          `there is no context ${name} in ${present.join(', ')} (contexts: ${known}); pick one of them with --context, or name it in stack.yaml as cluster:`,
        );
      }
      return access(name, context, cluster, users.get(String(context.body.user ?? '')));
    },
  };
}
