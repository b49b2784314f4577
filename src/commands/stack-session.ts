/**
 * What preview, apply, destroy and state share: the global flags, the stack compiled from its
 * folder, its clusters from the kubeconfig, and its state backend.
 */
import type { Command } from 'commander';
import { ClusterSet } from '../cluster/cluster-set.js';
import { loadKubeconfig } from '../cluster/kubeconfig.js';
import { compileStack, type CompiledStack } from '../konfig/compile.js';
import { loadStack } from '../konfig/workspace.js';
import { LocalStateBackend } from '../state/local.js';
import type { StateBackend } from '../state/backend.js';
import type { Clusters } from '../workflows/plan.js';

export interface GlobalFlags {
  kubeconfig?: string;
  context?: string;
  readOnly?: boolean;
}

export interface StackFlags {
  workdir?: string;
  setting: string[];
  argument: string[];
  overrides: string[];
  ignoreFields?: string;
}

export const collect = (value: string, previous: string[]) => [...previous, value];
export const collectList = (value: string, previous: string[]) => [...previous, ...value.split(',').filter(Boolean)];

/** The compile flags kusion shares between compile, preview, apply and destroy. */
export function withStackOptions(cmd: Command): Command {
  return cmd
    .option('-w, --workdir <dir>', 'the stack folder (default: the current folder)')
    .option('-Y, --setting <files>', 'settings files, comma-separated or repeated', collectList, [])
    .option('-D, --argument <key=value>', 'a top-level argument, read with option("key")', collect, [])
    .option('-O, --overrides <spec>', 'change a value before running: path.to.key=value, or path.to.key-', collect, []);
}

export function globalFlags(cmd: Command): GlobalFlags {
  return cmd.optsWithGlobals<GlobalFlags>();
}

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

export const ignoreList = (flags: StackFlags) => (flags.ignoreFields ?? '').split(',').filter(Boolean);
