/**
 * What preview, apply and destroy share: the stack compiled from its
 * folder, its clusters from the kubeconfig, and its state backend.
 */
import { ClusterSet } from '../cluster/cluster-set.js';
import { loadKubeconfig } from '../cluster/kubeconfig.js';
import { compileStack, type CompiledStack } from '../konfig/compile.js';
import { loadStack } from '../konfig/workspace.js';
import { LocalStateBackend } from '../state/local.js';
import type { StateBackend } from '../state/backend.js';
import type { Clusters } from '../workflows/plan.js';
import type { GlobalFlags, StackFlags } from './command-flags.js';

/** ClusterSet with `--context` as the default for stacks that name no cluster. */
class DefaultedClusters implements Clusters {
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
  root: string;
  clusterSet: ClusterSet;
  clusters: Clusters;
  backend: StateBackend;
}

export function openStack(flags: StackFlags, global: GlobalFlags): StackSession {
  const dir = flags.workdir ?? process.cwd();
  const { root } = loadStack(dir);
  const clusterSet = new ClusterSet(loadKubeconfig(global.kubeconfig));
  if (global.context) clusterSet.config(global.context);
  return {
    compile: () => compileStack(dir, { settings: flags.setting, arguments: flags.argument, overrides: flags.overrides }),
    root,
    clusterSet,
    clusters: new DefaultedClusters(clusterSet, global.context),
    backend: new LocalStateBackend(root),
  };
}

