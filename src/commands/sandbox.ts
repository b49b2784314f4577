/**
 * `kdeck sandbox`: starts sandbox clusters on this machine, writes a kubeconfig for them, says
 * how to use it with kubectl, and runs until Ctrl-C.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { parseAllDocuments } from 'yaml';
import type { KubeObject } from '../sandbox/api/object.js';
import { ApiError } from '../sandbox/api/errors.js';
import { contextName, maskToken } from '../sandbox/kubeconfig.js';
import { MAX_CLUSTERS, StateFileError, startSandbox, type Sandbox } from '../sandbox/launcher.js';
import { UserError } from '../user-error.js';

interface SandboxFlags {
  clusters: number;
  nodes: number;
  kubeconfig?: string;
  seed?: string;
  state?: string;
  readinessDelay: number;
}

function positiveInt(max: number) {
  return (v: string): number => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1 || n > max) throw new InvalidArgumentError(`give a whole number from 1 to ${max}`);
    return n;
  };
}

function milliseconds(v: string): number {
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new InvalidArgumentError('give a number of milliseconds, 0 or more');
  return n;
}

/** The objects of a seed file (YAML documents or JSON), each checked to look like an object. */
export function readSeed(file: string): KubeObject[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    throw new UserError(`cannot read the seed file ${file}; check the path`);
  }
  const out: KubeObject[] = [];
  parseAllDocuments(text).forEach((doc, i) => {
    if (doc.errors.length > 0) throw new UserError(`${file}: document ${i + 1} is not valid YAML: ${doc.errors[0]!.message.split('\n')[0]}`);
    const v: unknown = doc.toJS();
    if (v === null || v === undefined) return;
    const items = typeof v === 'object' && !Array.isArray(v) && (v as { kind?: unknown }).kind === 'List' ? ((v as { items?: unknown[] }).items ?? []) : [v];
    for (const item of items) {
      const o = item as Partial<KubeObject>;
      if (typeof o !== 'object' || o === null || typeof o.apiVersion !== 'string' || typeof o.kind !== 'string' || typeof o.metadata !== 'object' || o.metadata === null) {
        throw new UserError(`${file}: document ${i + 1} is not a Kubernetes object (it needs apiVersion, kind and metadata)`);
      }
      out.push(o as KubeObject);
    }
  });
  // namespaces and CRDs before what lives in them
  const rank = (o: KubeObject) => (o.kind === 'Namespace' || o.kind === 'CustomResourceDefinition' ? 0 : 1);
  return out.sort((a, b) => rank(a) - rank(b));
}

function usage(sb: Sandbox, nodes: number): string {
  const lines = [`kdeck sandbox: ${sb.clusters.length} cluster${sb.clusters.length === 1 ? '' : 's'} running, ${nodes} node${nodes === 1 ? '' : 's'} each`];
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

async function run(flags: SandboxFlags): Promise<void> {
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
    if ((e as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new UserError(`a port the sandbox wanted is taken: ${(e as Error).message}`, 1);
    throw e;
  }
  process.stdout.write(usage(sb, flags.nodes));
  const sig = await untilInterrupted();
  process.stdout.write(`\n${sig === 'SIGINT' ? 'Ctrl-C' : sig}: stopping the sandbox${flags.state ? ` and saving its state to ${flags.state}` : ''}…\n`);
  await sb.stop();
}

export function sandboxCommand(): Command {
  return new Command('sandbox')
    .description('run sandbox Kubernetes clusters on this machine and write a kubeconfig for kubectl')
    .option('--clusters <n>', `how many clusters (a, b, c, …; at most ${MAX_CLUSTERS})`, positiveInt(MAX_CLUSTERS), 2)
    .option('--nodes <n>', 'fake nodes per cluster', positiveInt(100), 3)
    .option('--kubeconfig <file>', 'write the kubeconfig here (merged into the file if it exists); default a temporary file')
    .option('--seed <file>', 'YAML or JSON objects every cluster starts with')
    .option('--state <file>', 'keep the clusters\' objects in this file across restarts')
    .option('--readiness-delay <ms>', 'how long a started container takes to become ready', milliseconds, 1000)
    // `--kubeconfig` is also kdeck's global flag, which commander hands to the root command
    .action((flags: SandboxFlags, command: Command) => run({ ...flags, kubeconfig: command.optsWithGlobals<SandboxFlags>().kubeconfig }));
}
