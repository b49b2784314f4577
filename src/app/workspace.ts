/**
 * Opening a workspace for an operation, as both faces do: its clusters (the kubeconfig's
 * contexts, or the workspace's embedded sandbox), its state backend (the workspace's config with
 * the command's overrides), and a stack compiled from its folder.
 */
import path from 'node:path';
import { ClusterSet } from '../cluster/cluster-set.js';
import { loadKubeconfig } from '../cluster/kubeconfig.js';
import type { ObjectClient } from '../cluster/objects.js';
import { compileStack, type CompileOptions, type CompiledStack } from '../konfig/compile.js';
import { loadStack } from '../konfig/workspace.js';
import type { StateBackend } from '../state/backend.js';
import { stateConfig, type StateFlags } from '../state/config.js';
import type { Clusters } from '../workflows/plan.js';
import { UserError } from '../diagnostics/user-error.js';
import { backendOf } from './state-session.js';

/** Which clusters and state a command works with: the global flags of both faces. */
export interface WorkspaceOptions extends StateFlags {
  kubeconfig?: string;
  /** `--context`, repeatable: the console works with several; other commands take one. */
  context: string[];
  readOnly?: boolean;
  sandbox?: boolean;
}

/** ClusterSet with `--context` as the default for stacks that name no cluster. */
export class DefaultedClusters implements Clusters {
  constructor(
    readonly set: ClusterSet,
    private readonly context: string | undefined,
  ) {}

  resolve(context: string | undefined): string {
    return this.set.resolve(context ?? this.context);
  }

  client(context: string) {
    return this.set.client(context);
  }
}

/** The one `--context` of a command that works on one stack at a time. */
export function singleContext(options: WorkspaceOptions): string | undefined {
  if (options.context.length > 1)
    throw new UserError(
      `--context is given ${options.context.length} times (${options.context.join(', ')}); this command uses one context (the console, kdeck ui, takes several)`,
    );
  return options.context[0];
}

export interface StackSession {
  /** Compiles the stack (again: watch mode and the apply machine call this when they need it). */
  compile(): CompiledStack;
  root: string;
  clusterSet: ClusterSet;
  clusters: Clusters;
  backend: StateBackend;
  /** Ends the session: lets go of the workspace's sandbox, which stops once no kdeck holds it. */
  close(): Promise<void>;
}

/** Where `--sandbox` keeps the workspace's embedded clusters between commands. */
export const SANDBOX_DIR = path.join('.kdeck', 'sandbox');

export interface OpenClusters {
  clusterSet: ClusterSet;
  close: () => Promise<void>;
}

/** The clusters of a command: the kubeconfig's contexts, or the workspace's embedded sandbox. */
export async function openClusters(options: WorkspaceOptions, root: string): Promise<OpenClusters> {
  if (options.sandbox && options.kubeconfig)
    throw new UserError('--sandbox and --kubeconfig both say which clusters to use; give one of them');
  // the embedded sandbox: two clusters (contexts sandbox-a, sandbox-b) served by one process per
  // workspace, which this command (or the console) attaches to, starting it if none runs
  const sandbox = options.sandbox
    ? await (await import('./workspace-sandbox.js')).attachWorkspaceSandbox(root)
    : undefined;
  try {
    const clusterSet = new ClusterSet(loadKubeconfig(sandbox?.kubeconfigPath ?? options.kubeconfig));
    for (const c of options.context) clusterSet.config(c);
    return { clusterSet, close: async () => sandbox?.release() };
  } catch (e) {
    await sandbox?.release();
    throw e;
  }
}

/**
 * Opens the connection to the stack's cluster, whose calls come once the stack is compiled: the
 * round trips of its handshakes pass meanwhile (on loopback there are none worth it; a cluster
 * 30 ms away answers a preview 25 ms sooner). A cluster that cannot be named or reached is left
 * for the plan to report, as it would have been.
 */
async function connectEarly(clusters: DefaultedClusters, stackCluster: string | undefined): Promise<void> {
  let client: ObjectClient;
  try {
    client = clusters.client(clusters.resolve(stackCluster));
  } catch {
    return;
  }
  await client.rest.preconnect();
}

/** A stack folder (or the current folder), its workspace's clusters and its state backend. */
export async function openStack(
  dir: string | undefined,
  compile: CompileOptions,
  options: WorkspaceOptions,
): Promise<StackSession> {
  const stackDir = dir ?? process.cwd();
  const { root, stack } = loadStack(stackDir);
  const config = stateConfig(root, options);
  const { clusterSet, close } = await openClusters(options, root);
  try {
    const clusters = new DefaultedClusters(clusterSet, singleContext(options));
    await connectEarly(clusters, stack.cluster);
    return {
      // `--read-only` holds for the program too: it writes no file, nor its parses to the cache
      compile: () =>
        compileStack(stackDir, {
          ...compile,
          guards: { ...compile.guards, readOnly: compile.guards?.readOnly === true || options.readOnly === true },
          keepParses: true,
        }),
      root,
      clusterSet,
      clusters,
      backend: backendOf(config.backend, root, config, clusterSet),
      close,
    };
  } catch (e) {
    await close();
    throw e;
  }
}
