/**
 * The state backend of a command: the workspace's `.kdeck/config.yaml` with the global flags
 * over it. The kubernetes backend reaches its context through the command's clusters (the
 * kubeconfig, or the embedded sandbox); the local one needs no cluster at all, so the state
 * commands open clusters only when the backend lives in one.
 */
import type { ClusterSet } from '../cluster/cluster-set.js';
import type { BackendKind, StateBackend } from '../state/backend.js';
import { CONFIG_FILE, stateConfig, type StateConfig } from '../state/config.js';
import { KubernetesStateBackend } from '../state/kubernetes.js';
import { LocalStateBackend } from '../state/local.js';
import { UserError } from '../diagnostics/user-error.js';
import { openClusters, type WorkspaceOptions } from './workspace.js';

/** The backend of `kind` with the workspace's settings; `clusterSet` is needed for kubernetes. */
export function backendOf(
  kind: BackendKind,
  root: string,
  config: StateConfig,
  clusterSet: ClusterSet | undefined,
): StateBackend {
  if (kind === 'local') return new LocalStateBackend(root, config.lockSeconds);
  if (!clusterSet) throw new Error('the kubernetes state backend needs the clusters of the command');
  const context = clusterSet.resolve(config.context);
  if (!clusterSet.contexts.some((c) => c.name === context)) {
    const known = clusterSet.contexts.map((c) => c.name).join(', ') || 'none';
    throw new UserError(
      `the kubernetes state backend's context ${context} is not in the kubeconfig (contexts: ${known}); name one in ${CONFIG_FILE} as state.context, or pass --state-context`,
    );
  }
  return new KubernetesStateBackend({
    rest: clusterSet.client(context).rest,
    namespace: config.namespace,
    lockSeconds: config.lockSeconds,
  });
}

export interface StateSession {
  config: StateConfig;
  backend: StateBackend;
  /** The other backend of the workspace, for a migration (opened on demand). */
  backendOf(kind: BackendKind): StateBackend;
  close(): Promise<void>;
}

/** The state backend of the workspace at `root`, opening its clusters if it needs them (or `withClusters`). */
export async function openStateSession(
  global: WorkspaceOptions,
  root: string,
  withClusters = false,
): Promise<StateSession> {
  const config = stateConfig(root, global);
  const clusters = withClusters || config.backend === 'kubernetes' ? await openClusters(global, root) : undefined;
  try {
    return {
      config,
      backend: backendOf(config.backend, root, config, clusters?.clusterSet),
      backendOf: (kind) => backendOf(kind, root, config, clusters?.clusterSet),
      close: async () => clusters?.close(),
    };
  } catch (e) {
    await clusters?.close();
    throw e;
  }
}
