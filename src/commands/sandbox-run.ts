/**
 * What `kdeck sandbox` does: start the clusters, say how to reach them, and run until Ctrl-C.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { KubeObject } from '../sandbox/api/object.js';
import { ApiError } from '../sandbox/api/errors.js';
import { contextName, maskToken } from '../sandbox/kubeconfig.js';
import { StateFileError, startSandbox, type Sandbox } from '../sandbox/launcher.js';
import { UserError } from '../diagnostics/user-error.js';
import type { SandboxFlags } from './sandbox.js';

/** The objects of a seed file (YAML documents or JSON), each checked to look like an object. */
function readSeed(file: string): KubeObject[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    throw new UserError(`cannot read the seed file ${file}; check the path`);
  }
  const out: KubeObject[] = [];
  parseAllDocuments(text).forEach((doc, i) => {
    if (doc.errors.length > 0)
      throw new UserError(`${file}: document ${i + 1} is not valid YAML: ${doc.errors[0]!.message.split('\n')[0]}`);
    const v: unknown = doc.toJS();
    if (v === null || v === undefined) return;
    const items =
      typeof v === 'object' && !Array.isArray(v) && (v as { kind?: unknown }).kind === 'List'
        ? ((v as { items?: unknown[] }).items ?? [])
        : [v];
    for (const item of items) {
      const o = item as Partial<KubeObject>;
      if (
        typeof o !== 'object' ||
        o === null ||
        typeof o.apiVersion !== 'string' ||
        typeof o.kind !== 'string' ||
        typeof o.metadata !== 'object' ||
        o.metadata === null
      ) {
        throw new UserError(
          `${file}: document ${i + 1} is not a Kubernetes object (it needs apiVersion, kind and metadata)`,
        );
      }
      out.push(o as KubeObject);
    }
  });
  // namespaces and CRDs before what lives in them
  const rank = (o: KubeObject) => (o.kind === 'Namespace' || o.kind === 'CustomResourceDefinition' ? 0 : 1);
  return out.sort((a, b) => rank(a) - rank(b));
}

function usage(sb: Sandbox, nodes: number): string {
  const lines = [
    `kdeck sandbox: ${sb.clusters.length} cluster${sb.clusters.length === 1 ? '' : 's'} running, ${nodes} node${nodes === 1 ? '' : 's'} each`,
  ];
  for (const c of sb.clusters) lines.push(`  ${contextName(c.name).padEnd(12)} ${c.url}  token ${maskToken(c.token)}`);
  const first = sb.clusters[0]!;
  const other = sb.clusters[1] ?? first;
  lines.push(
    '',
    `kubeconfig: ${sb.kubeconfigPath}`,
    '',
    'Use it with kubectl:',
    `  export KUBECONFIG=${sb.kubeconfigPath}`,
    '  kubectl get nodes',
    `  kubectl --context ${contextName(other.name)} get pods -A`,
    '',
    `Faults (${first.url}/__sandbox/faults, with the cluster's token), for example:`,
    `  curl -k -X PATCH -H "Authorization: Bearer $(kubectl config view --raw -o jsonpath='{.users[?(@.name=="${contextName(first.name)}")].user.token}')" \\`,
    `       -d '{"notReadyNodes":["${first.name}-node-1"]}' ${first.url}/__sandbox/faults`,
    'Images tagged :nopull, :crashloop or :neverready misbehave on purpose.',
    '',
    'Press Ctrl-C to stop.',
  );
  return `${lines.join('\n')}\n`;
}

/** Resolves on the first Ctrl-C (SIGINT) or SIGTERM. */
function untilInterrupted(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const on = (sig: NodeJS.Signals) => {
      process.off('SIGINT', on);
      process.off('SIGTERM', on);
      resolve(sig);
    };
    process.on('SIGINT', on);
    process.on('SIGTERM', on);
  });
}

export async function runSandbox(flags: SandboxFlags): Promise<void> {
  const objects = flags.seed ? readSeed(flags.seed) : undefined;
  let sb: Sandbox;
  try {
    sb = await startSandbox({
      clusters: flags.clusters,
      nodes: flags.nodes,
      timings: { readinessDelayMs: flags.readinessDelay },
      ...(flags.kubeconfig ? { kubeconfig: path.resolve(flags.kubeconfig) } : {}),
      ...(flags.state ? { statePath: path.resolve(flags.state) } : {}),
      ...(objects ? { objects } : {}),
    });
  } catch (e) {
    if (e instanceof ApiError) throw new UserError(`${flags.seed ?? 'seed'}: an object was refused: ${e.message}`);
    if (e instanceof StateFileError) throw new UserError(e.message);
    if ((e as NodeJS.ErrnoException).code === 'EADDRINUSE')
      throw new UserError(`a port the sandbox wanted is taken: ${(e as Error).message}`, 1);
    throw e;
  }
  process.stdout.write(usage(sb, flags.nodes));
  const sig = await untilInterrupted();
  process.stdout.write(
    `\n${sig === 'SIGINT' ? 'Ctrl-C' : sig}: stopping the sandbox${flags.state ? ` and saving its state to ${flags.state}` : ''}…\n`,
  );
  await sb.stop();
}
