/**
 * Where a workspace keeps its states: `<workspace>/.kdeck/config.yaml`, committed with the
 * repository so that a whole team (and its CI) uses the same backend, and overridden per command
 * by the global flags `--state-backend`, `--state-context` and `--state-namespace`:
 *
 *   state:
 *     backend: kubernetes        # or local (the default): files under .kdeck/state
 *     context: prod-admin        # the kube context that keeps the states (default: the current one)
 *     namespace: kdeck-system    # the namespace of their Secrets and Leases (default: kdeck-system)
 *     leaseDurationSeconds: 60   # how long a lock outlives its last renewal
 *
 * Mistakes are diagnostics at their line and column, like those of stack.yaml.
 */
import fs from 'node:fs';
import path from 'node:path';
import { isMap, isScalar, type Node } from 'yaml';
import { kclError } from '../diagnostics/diagnostics.js';
import { parseYamlFile, positionOf } from '../kcl/settings.js';
import { UserError } from '../diagnostics/user-error.js';
import { BACKENDS, DEFAULT_LOCK_SECONDS, DEFAULT_STATE_NAMESPACE, type BackendKind } from './backend.js';

export const CONFIG_FILE = path.join('.kdeck', 'config.yaml');

export interface StateConfig {
  backend: BackendKind;
  /** The kube context of the kubernetes backend; undefined: the kubeconfig's current one. */
  context?: string;
  namespace: string;
  lockSeconds: number;
}

/** The global flags that override the file. */
export interface StateFlags {
  stateBackend?: string;
  stateContext?: string;
  stateNamespace?: string;
}

const KEYS = ['backend', 'context', 'namespace', 'leaseDurationSeconds'];

const isBackend = (v: unknown): v is BackendKind => (BACKENDS as readonly unknown[]).includes(v);

const defaults = (): StateConfig => ({
  backend: 'local',
  namespace: DEFAULT_STATE_NAMESPACE,
  lockSeconds: DEFAULT_LOCK_SECONDS,
});

/** The `state:` settings of the workspace at `root`, or the defaults when it has no config file. */
export function readStateConfig(root: string): StateConfig {
  const file = path.join(root, CONFIG_FILE);
  const config = defaults();
  if (!fs.existsSync(file)) return config;
  const { doc, text } = parseYamlFile(file, 'kdeck config file');
  const wrong = (node: Node | null | undefined, message: string) =>
    kclError('WorkspaceError', `${message} in ${CONFIG_FILE}`, positionOf(file, text, node));
  const top = doc.contents;
  if (top === null || (isScalar(top) && top.value === null)) return config;
  if (!isMap(top)) throw wrong(top, 'the file must be a mapping (state: ...)');
  const state = top.get('state', true);
  if (state === undefined || (isScalar(state) && state.value === null)) return config;
  if (!isMap(state)) throw wrong(state, 'state must be a mapping (backend, context, namespace, leaseDurationSeconds)');
  for (const pair of state.items) {
    const key = isScalar(pair.key) ? pair.key.value : undefined;
    if (typeof key !== 'string' || !KEYS.includes(key))
      throw wrong(pair.key as Node, `unknown setting state.${String(key)} (known: ${KEYS.join(', ')})`);
    const node = pair.value as Node | null;
    const value = isScalar(node) ? node.value : undefined;
    switch (key) {
      case 'backend':
        if (!isBackend(value)) throw wrong(node, `state.backend must be ${BACKENDS.join(' or ')}`);
        config.backend = value;
        break;
      case 'context':
      case 'namespace':
        if (typeof value !== 'string' || value === '') throw wrong(node, `state.${key} must be a non-empty string`);
        config[key] = value;
        break;
      case 'leaseDurationSeconds':
        if (typeof value !== 'number' || !Number.isInteger(value) || value < 1)
          throw wrong(node, 'state.leaseDurationSeconds must be a whole number of seconds, at least 1');
        config.lockSeconds = value;
        break;
    }
  }
  return config;
}

/** The workspace's settings with the command's flags over them. */
export function stateConfig(root: string, flags: StateFlags): StateConfig {
  const config = readStateConfig(root);
  if (flags.stateBackend !== undefined) {
    if (!isBackend(flags.stateBackend))
      throw new UserError(`--state-backend ${flags.stateBackend} is not a state backend; use ${BACKENDS.join(' or ')}`);
    config.backend = flags.stateBackend;
  }
  if (flags.stateContext !== undefined) config.context = flags.stateContext;
  if (flags.stateNamespace !== undefined) config.namespace = flags.stateNamespace;
  return config;
}
