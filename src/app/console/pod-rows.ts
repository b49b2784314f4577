/**
 * Pods as `kubectl get pods -o wide` prints them: NAME, READY, STATUS (the reason a container
 * waits or ended with, such as CrashLoopBackOff, as kubectl works it out), RESTARTS with the age
 * of the last one (`3 (42s ago)`), AGE, NODE and IP; and the `:sort COLUMN` order of them. Pure.
 */
import type { KubeObject } from '../../model/kube-object.js';
import { asObject, type Attributes } from '../../model/resource.js';
import { ageOf } from './age.js';

export interface PodRow {
  name: string;
  namespace?: string;
  /** `1/2`: ready containers of all. */
  ready: string;
  status: string;
  restarts: number;
  /** `3 (42s ago)`, or `0`. */
  restartsText: string;
  age: string;
  /** Epoch ms of the creation, for sorting by age. */
  created: number;
  node: string;
  ip: string;
  /** Whether the pod is well: Running with every container ready, or Completed. */
  tone: 'ok' | 'warning' | 'danger' | 'muted';
}

const arr = (x: unknown): Attributes[] => (Array.isArray(x) ? x.map(asObject) : []);
const str = (x: unknown): string | undefined => (typeof x === 'string' && x !== '' ? x : undefined);

/** What a container ended with, as kubectl writes it: its reason, else the signal or exit code. */
function terminatedText(t: Attributes, prefix = ''): string {
  if (str(t.reason)) return `${prefix}${str(t.reason)}`;
  if (Number(t.signal ?? 0) !== 0) return `${prefix}Signal:${Number(t.signal)}`;
  return `${prefix}ExitCode:${Number(t.exitCode ?? 0)}`;
}

/** kubectl's STATUS column (printPod in kubectl's printers). */
export function podStatus(pod: KubeObject): string {
  const status = asObject(pod.status);
  let reason = str(status.reason) ?? str(status.phase) ?? 'Unknown';
  const inits = arr(status.initContainerStatuses);
  const initTotal = arr(asObject(pod.spec).initContainers).length || inits.length;
  let initializing = false;
  for (const [i, c] of inits.entries()) {
    const state = asObject(c.state);
    const terminated = state.terminated === undefined ? undefined : asObject(state.terminated);
    if (terminated && Number(terminated.exitCode ?? 0) === 0) continue;
    initializing = true;
    const waiting = str(asObject(state.waiting).reason);
    if (terminated) reason = terminatedText(terminated, 'Init:');
    else if (waiting && waiting !== 'PodInitializing') reason = `Init:${waiting}`;
    else reason = `Init:${i}/${initTotal}`;
    break;
  }
  if (!initializing) {
    let running = false;
    for (const c of [...arr(status.containerStatuses)].reverse()) {
      const state = asObject(c.state);
      const waiting = str(asObject(state.waiting).reason);
      if (waiting) reason = waiting;
      else if (state.terminated !== undefined) reason = terminatedText(asObject(state.terminated));
      else if (state.running !== undefined && c.ready === true) running = true;
    }
    if (reason === 'Completed' && running) {
      const ready = arr(status.conditions).find((c) => c.type === 'Ready');
      reason = ready?.status === 'True' ? 'Running' : 'NotReady';
    }
  }
  if (asObject(pod.metadata).deletionTimestamp !== undefined)
    reason = status.reason === 'NodeLost' ? 'Unknown' : 'Terminating';
  return reason;
}

/** One row of `kubectl get pods -o wide` at `now`. */
export function podRow(pod: KubeObject, now: number): PodRow {
  const status = asObject(pod.status);
  const meta = asObject(pod.metadata);
  const containers = arr(status.containerStatuses);
  const total = arr(asObject(pod.spec).containers).length || containers.length;
  const ready = containers.filter((c) => c.ready === true).length;
  const all = [...arr(status.initContainerStatuses), ...containers];
  const restarts = all.reduce((n, c) => n + Number(c.restartCount ?? 0), 0);
  const lastRestart = Math.max(
    ...all.map((c) => Date.parse(str(asObject(asObject(c.lastState).terminated).finishedAt) ?? '') || 0),
  );
  const text = podStatus(pod);
  const created = Date.parse(str(meta.creationTimestamp) ?? '') || 0;
  return {
    name: String(meta.name ?? ''),
    ...(str(meta.namespace) ? { namespace: str(meta.namespace) } : {}),
    ready: `${ready}/${total}`,
    status: text,
    restarts,
    restartsText:
      restarts > 0 && lastRestart > 0
        ? `${restarts} (${ageOf(new Date(lastRestart).toISOString(), now)} ago)`
        : String(restarts),
    age: ageOf(meta.creationTimestamp, now),
    created,
    node: str(asObject(pod.spec).nodeName) ?? '<none>',
    ip: str(status.podIP) ?? '<none>',
    tone: toneOf(text, ready, total),
  };
}

function toneOf(status: string, ready: number, total: number): PodRow['tone'] {
  if (status === 'Completed' || status === 'Succeeded') return 'muted';
  if (status === 'Running') return ready === total ? 'ok' : 'warning';
  if (status === 'Pending' || status === 'ContainerCreating' || status === 'Terminating' || status.startsWith('Init:'))
    return /Err|BackOff|Error/.test(status) ? 'danger' : 'warning';
  return 'danger';
}

export const POD_COLUMNS = ['name', 'ready', 'status', 'restarts', 'age', 'node', 'ip'] as const;
export type PodColumn = (typeof POD_COLUMNS)[number];

export interface PodSort {
  column: PodColumn;
  descending: boolean;
}

const naturally = new Intl.Collator(undefined, { numeric: true }).compare;

/**
 * Rows in the order `sort` asks (by name when none): a column's own order, names breaking ties.
 * Age sorts by the time since creation, so the youngest pod comes first.
 */
export function sortPods(rows: readonly PodRow[], sort: PodSort | undefined): PodRow[] {
  const by: Record<PodColumn, (a: PodRow, b: PodRow) => number> = {
    name: (a, b) => naturally(a.name, b.name),
    ready: (a, b) => naturally(a.ready, b.ready),
    status: (a, b) => naturally(a.status, b.status),
    restarts: (a, b) => a.restarts - b.restarts,
    age: (a, b) => b.created - a.created,
    node: (a, b) => naturally(a.node, b.node),
    ip: (a, b) => naturally(a.ip, b.ip),
  };
  const column = by[sort?.column ?? 'name'];
  const sign = sort?.descending ? -1 : 1;
  return [...rows].sort((a, b) => sign * column(a, b) || naturally(a.name, b.name));
}

/** The sort `:sort WORD` asks for (`restarts`, `-age`, `age-`), or why it cannot. */
export function parseSort(word: string): PodSort | { error: string } {
  const descending = word.startsWith('-') || word.endsWith('-');
  const name = word.replace(/^-|-$/g, '').toLowerCase();
  const column = POD_COLUMNS.find((c) => c === name);
  if (!column) return { error: `no column ${name || word}; sort by ${POD_COLUMNS.join(', ')} (-COLUMN: descending)` };
  return { column, descending };
}
