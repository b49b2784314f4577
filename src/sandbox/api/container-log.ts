/**
 * What a simulated container "writes": a start line, a heartbeat line every few seconds while it
 * runs, and the lines before its end (a crash's error, or a clean finish). The lines are derived
 * from the pod's status alone (when a run started, when and how it ended), so they are the same
 * on every read, survive a snapshot restore, and need no memory per container.
 */
import { getPath, isMap } from '../json.js';
import { badRequest } from './errors.js';
import type { KubeObject } from './object.js';

/** How often a running simulated container writes a heartbeat line, in cluster milliseconds. */
export const HEARTBEAT_MS = 5_000;
/** A run older than this writes only its last lines (a kubelet rotates logs too). */
const MAX_LINES_PER_RUN = 10_000;

export interface LogLine {
  /** Cluster milliseconds since the epoch. */
  at: number;
  text: string;
}

/** One run of a container, as its status tells it. */
export interface ContainerRunView {
  container: string;
  image: string;
  node: string;
  startedAt: number;
  /** Set when the run is over. */
  ended?: { at: number; exitCode: number; reason: string };
}

function time(v: unknown): number | undefined {
  if (typeof v !== 'string') return undefined;
  const t = Date.parse(v);
  return Number.isNaN(t) ? undefined : t;
}

function runOf(base: Omit<ContainerRunView, 'startedAt'>, state: unknown): ContainerRunView | undefined {
  if (!isMap(state)) return undefined;
  const running = state.running;
  if (isMap(running)) {
    const at = time(running.startedAt);
    return at === undefined ? undefined : { ...base, startedAt: at };
  }
  const done = state.terminated;
  if (isMap(done)) {
    const end = time(done.finishedAt);
    const start = time(done.startedAt) ?? end;
    if (start === undefined || end === undefined) return undefined;
    return {
      ...base,
      startedAt: start,
      ended: { at: end, exitCode: Number(done.exitCode ?? 0), reason: String(done.reason ?? '') },
    };
  }
  return undefined;
}

/** The container a log request names (or the only one), as the API server picks it. */
export function logContainer(pod: KubeObject, asked: string | null): Record<string, unknown> {
  const all = (['initContainers', 'containers', 'ephemeralContainers'] as const).flatMap(
    (f) => (getPath(pod, ['spec', f]) as unknown[] | undefined)?.filter(isMap) ?? [],
  );
  const main = ((getPath(pod, ['spec', 'containers']) as unknown[] | undefined) ?? []).filter(isMap);
  const podName = pod.metadata.name ?? '';
  if (asked === null) {
    const defaulted = pod.metadata.annotations?.['kubectl.kubernetes.io/default-container'];
    const pick = defaulted ?? (main.length === 1 ? String(main[0]!.name) : undefined);
    if (pick === undefined) {
      const names = main.map((c) => String(c.name)).join(' ');
      throw badRequest(`a container name must be specified for pod ${podName}, choose one of: [${names}]`);
    }
    asked = pick;
  }
  const c = all.find((x) => x.name === asked);
  if (!c) throw badRequest(`container ${asked} is not valid for pod ${podName}`);
  return c;
}

/**
 * The run a log request reads: the current (or, once it ended, the last) one, or with `previous`
 * the one before. Refused, as a kubelet refuses, when that run does not exist.
 */
export function runForLog(pod: KubeObject, container: Record<string, unknown>, previous: boolean): ContainerRunView {
  const name = String(container.name);
  const podName = pod.metadata.name ?? '';
  const node = String(getPath(pod, ['spec', 'nodeName']) ?? '');
  if (node === '') throw badRequest(`pod ${podName} does not have a host assigned`);
  const statuses = (['initContainerStatuses', 'containerStatuses'] as const).flatMap(
    (f) => (getPath(pod, ['status', f]) as unknown[] | undefined)?.filter(isMap) ?? [],
  );
  const st = statuses.find((s) => s.name === name);
  const base = { container: name, image: String(container.image ?? ''), node };
  if (previous) {
    const run = runOf(base, st?.lastState);
    if (!run) throw badRequest(`previous terminated container "${name}" in pod "${podName}" not found`);
    return run;
  }
  const run = runOf(base, st?.state) ?? runOf(base, st?.lastState);
  if (run) return run;
  const reason = getPath(st, ['state', 'waiting', 'reason']);
  throw badRequest(
    `container "${name}" in pod "${podName}" is waiting to start: ${typeof reason === 'string' ? reason : 'ContainerCreating'}`,
  );
}

function endLines(run: ContainerRunView): LogLine[] {
  const e = run.ended;
  if (!e) return [];
  if (e.exitCode === 0) return [{ at: e.at, text: `${run.container}: work finished, exiting with code 0` }];
  return [
    {
      at: Math.max(run.startedAt, e.at - 1),
      text: `${run.container}: fatal error: simulated failure (the kdeck sandbox ends this container: ${e.reason || 'Error'})`,
    },
    { at: e.at, text: `${run.container}: exiting with code ${e.exitCode}` },
  ];
}

/** The lines a run has written by `now` (all of them once it ended), oldest first. */
export function runLines(run: ContainerRunView, now: number): LogLine[] {
  const until = run.ended ? run.ended.at : now;
  const out: LogLine[] = [];
  const beats = Math.max(0, Math.floor((until - run.startedAt) / HEARTBEAT_MS));
  const first = Math.max(1, beats - MAX_LINES_PER_RUN + 1);
  if (first === 1)
    out.push({
      at: run.startedAt,
      text: `${run.container}: started from image ${run.image} on node ${run.node} (a simulated container: the kdeck sandbox runs no process)`,
    });
  for (let k = first; k <= beats; k++) {
    const at = run.startedAt + k * HEARTBEAT_MS;
    // the heartbeat due at the very moment of a crash is not written: the process is gone
    if (run.ended && at >= run.ended.at) break;
    out.push({ at, text: `${run.container}: heartbeat ${k}: serving, up ${(k * HEARTBEAT_MS) / 1000}s` });
  }
  return [...out, ...endLines(run)];
}

/** RFC3339 with nine fractional digits, the kubelet's `--timestamps` prefix. */
export function nanoTime(ms: number): string {
  const iso = new Date(Math.floor(ms)).toISOString(); // 2026-01-02T03:04:05.678Z
  return `${iso.slice(0, 23)}000000Z`;
}

export interface LogOptions {
  timestamps: boolean;
  tailLines?: number;
  /** Cluster milliseconds: lines before this are left out. */
  since?: number;
  limitBytes?: number;
}

function nonNegativeInt(q: URLSearchParams, key: string): number | undefined {
  const v = q.get(key);
  if (v === null) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0)
    throw badRequest(`${key}: Invalid value: "${v}": must be greater than or equal to 0`);
  return n;
}

/** PodLogOptions from a query, with the API server's refusals. */
export function logOptions(q: URLSearchParams, now: number): LogOptions {
  const opts: LogOptions = { timestamps: q.get('timestamps') === 'true' };
  const tail = nonNegativeInt(q, 'tailLines');
  if (tail !== undefined) opts.tailLines = tail;
  const limit = nonNegativeInt(q, 'limitBytes');
  if (limit !== undefined) {
    if (limit === 0) throw badRequest('limitBytes: Invalid value: 0: must be greater than 0');
    opts.limitBytes = limit;
  }
  const sinceSeconds = q.get('sinceSeconds');
  const sinceTime = q.get('sinceTime');
  if (sinceSeconds !== null && sinceTime !== null)
    throw badRequest('sinceSeconds: Forbidden: at most one of `sinceTime` or `sinceSeconds` may be specified');
  if (sinceSeconds !== null) {
    const n = Number(sinceSeconds);
    if (!Number.isInteger(n) || n < 1)
      throw badRequest(`sinceSeconds: Invalid value: ${sinceSeconds}: must be greater than 0`);
    opts.since = now - n * 1000;
  }
  if (sinceTime !== null) {
    const t = Date.parse(sinceTime);
    if (Number.isNaN(t)) throw badRequest(`sinceTime: Invalid value: "${sinceTime}": must be an RFC3339 time`);
    opts.since = t;
  }
  return opts;
}

export function formatLine(l: LogLine, timestamps: boolean): string {
  return timestamps ? `${nanoTime(l.at)} ${l.text}\n` : `${l.text}\n`;
}

/** The lines a request selects (since, then tail), formatted. limitBytes is the caller's. */
export function selectLines(lines: LogLine[], opts: LogOptions): string[] {
  let picked = opts.since === undefined ? lines : lines.filter((l) => l.at >= opts.since!);
  if (opts.tailLines !== undefined) picked = picked.slice(Math.max(0, picked.length - opts.tailLines));
  return picked.map((l) => formatLine(l, opts.timestamps));
}
