/**
 * The State of one (project, stack, cluster): the resources as last applied, in kusion's shape
 * (project, stack, cluster, serial, operator, resources, createTime, modifiedTime), plus each
 * resource's live identity and an operation history. Pure: the backends store it.
 */
import type { Resource } from '../model/resource.js';

export const STATE_VERSION = 1;
/** Operations kept in a state's history; older ones fall off. */
export const HISTORY_LIMIT = 50;

export interface StateKey {
  project: string;
  stack: string;
  /** The kube context the resources were applied to. */
  cluster: string;
}

/** A resource as it reached the cluster, with the identity the server gave it. */
export interface StateResource extends Resource {
  live?: { uid?: string; resourceVersion?: string };
}

export type OperationKind = 'apply' | 'destroy' | 'recover';
export type OperationResult = 'running' | 'succeeded' | 'failed' | 'interrupted';

export interface OperationRecord {
  kind: OperationKind;
  operator: string;
  startTime: string;
  endTime?: string;
  result: OperationResult;
  created: number;
  updated: number;
  deleted: number;
}

export interface State extends StateKey {
  version: number;
  serial: number;
  /** Who wrote the state last: user@host. */
  operator: string;
  createTime: string;
  modifiedTime: string;
  resources: StateResource[];
  history: OperationRecord[];
}

function keyOf(k: StateKey): StateKey {
  return { project: k.project, stack: k.stack, cluster: k.cluster };
}

export function describeKey(k: StateKey): string {
  return `${k.project}/${k.stack} on ${k.cluster}`;
}

export function emptyState(key: StateKey, operator: string, now: string): State {
  return {
    ...keyOf(key),
    version: STATE_VERSION,
    serial: 0,
    operator,
    createTime: now,
    modifiedTime: now,
    resources: [],
    history: [],
  };
}

const byId = (a: StateResource, b: StateResource) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** The state with `resource` recorded (replacing any earlier record of its id). */
export function withResource(state: State, resource: StateResource): State {
  return { ...state, resources: [...state.resources.filter((r) => r.id !== resource.id), resource].sort(byId) };
}

/** The state without the resource `id`. */
export function withoutResource(state: State, id: string): State {
  return { ...state, resources: state.resources.filter((r) => r.id !== id) };
}

/** The state with the operation begun (or updated, when the last record is the same running one). */
export function withOperation(state: State, op: OperationRecord): State {
  const last = state.history[state.history.length - 1];
  const history =
    last && last.result === 'running' && last.startTime === op.startTime
      ? [...state.history.slice(0, -1), op]
      : [...state.history, op];
  return { ...state, history: history.slice(-HISTORY_LIMIT) };
}
