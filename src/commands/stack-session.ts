/**
 * What preview, apply and destroy share: the stack compiled from its folder, its clusters from
 * the kubeconfig, and its state backend (the workspace's config and the global flags choose it).
 */
import path from 'node:path';
import { ClusterSet } from '../cluster/cluster-set.js';
import { loadKubeconfig } from '../cluster/kubeconfig.js';
import { compileStack, type CompiledStack } from '../konfig/compile.js';
import { loadStack } from '../konfig/workspace.js';
import type { StateBackend } from '../state/backend.js';
import { stateConfig } from '../state/config.js';
import type { Clusters } from '../workflows/plan.js';
import { UserError } from '../user-error.js';
import { compileOptions, singleContext, type GlobalFlags, type StackFlags } from './command-flags.js';
import { backendOf } from './state-session.js';

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

export interface StackSession {
  /** Compiles the stack (again: watch mode and the apply machine call this when they need it). */
  compile(): CompiledStack;
  clusterSet: ClusterSet;
  clusters: Clusters;
  backend: StateBackend;
  /** Ends the session: lets go of the workspace's sandbox, which stops once no kdeck holds it. */
  close(): Promise<void>;
}

/** Where `--sandbox` keeps the workspace's embedded clusters between commands. */
export const SANDBOX_DIR = path.join('.kdeck', 'sandbox');

/** The clusters of a command: the kubeconfig's contexts, or the workspace's embedded sandbox. */
export async function openClusters(
  global: GlobalFlags,
  root: string,
): Promise<{ clusterSet: ClusterSet; close: () => Promise<void> }> {
  if (global.sandbox && global.kubeconfig)
    throw new UserError('--sandbox and --kubeconfig both say which clusters to use; give one of them');
  // the embedded sandbox: two clusters (contexts sandbox-a, sandbox-b) served by one process per
  // workspace, which this command (or the console) attaches to, starting it if none runs
  const sandbox = global.sandbox
    ? await (await import('../app/workspace-sandbox.js')).attachWorkspaceSandbox(root)
    : undefined;
  try {
    const clusterSet = new ClusterSet(loadKubeconfig(sandbox?.kubeconfigPath ?? global.kubeconfig));
    for (const c of global.context) clusterSet.config(c);
    return { clusterSet, close: async () => sandbox?.release() };
  } catch (e) {
    await sandbox?.release();
    throw e;
  }
}

export async function openStack(flags: StackFlags, global: GlobalFlags): Promise<StackSession> {
  const dir = flags.workdir ?? process.cwd();
  const { root } = loadStack(dir);
  const config = stateConfig(root, global);
  const { clusterSet, close } = await openClusters(global, root);
  try {
    return {
      compile: () => compileStack(dir, compileOptions(flags)),
      clusterSet,
      clusters: new DefaultedClusters(clusterSet, singleContext(global)),
      backend: backendOf(config.backend, root, config, clusterSet),
      close,
    };
  } catch (e) {
    await close();
    throw e;
  }
}
