/**
 * One simulated container, as a small state machine over time: created, then running (or stuck
 * pulling an image that never arrives, or waiting for the ConfigMap or Secret its environment
 * names), possibly exiting and being restarted with the kubelet's back-off. `advance` is pure: given the state, the time and what the container is, it returns
 * the new state, what happened on the way (for Events) and when to look again.
 */
import type { ContainerFault } from '../faults.js';
import { withFields } from '../json.js';

export type Stage = 'creating' | 'pullError' | 'pullBackOff' | 'configError' | 'running' | 'backOff' | 'exited';

export interface Termination {
  exitCode: number;
  reason: string;
  startedAt: number;
  finishedAt: number;
}

export interface ContainerRun {
  stage: Stage;
  /** When the current stage began. */
  since: number;
  restarts: number;
  pullAttempts: number;
  /** Start of the current (or last) run. */
  startedAt?: number;
  /** The run that ended last: lastState.terminated, or state.terminated once exited for good. */
  last?: Termination;
  /** Why the container could not be made (stage configError), in the kubelet's words. */
  configError?: string;
}

export interface ContainerNature {
  fault: ContainerFault;
  /** Always restarts whatever the exit; OnFailure only after a failure; Never does not. */
  restartPolicy: 'Always' | 'OnFailure' | 'Never';
  /** The exit code when the container finishes on its own (a Job's), 0 unless told to fail. */
  exitCode: number;
  /** Why its environment cannot be made now: a missing ConfigMap, Secret or key (config-refs.ts). */
  configProblem?: string;
}

export interface RunTimings {
  podStartMs: number;
  jobRunMs: number;
  crashAfterMs: number;
}

export type Happening = 'pulling' | 'pullFailed' | 'pullBackOff' | 'configFailed' | 'started' | 'exited' | 'backOff';

/** The kubelet's back-off for a restart or a pull: 10 s, doubling, at most 5 min. */
export function backoffMs(attempt: number): number {
  return Math.min(10_000 * 2 ** Math.max(0, attempt - 1), 300_000);
}

/** How long a pull error shows before the kubelet reports it as back-off. */
const PULL_ERROR_MS = 1000;

/** The pod worker's wait before it syncs a pod again after an error (the kubelet's backOffPeriod,
 * without its jitter): a container whose ConfigMap came late starts up to this much later. */
export const SYNC_RETRY_MS = 10_000;

export function newRun(now: number): ContainerRun {
  return { stage: 'creating', since: now, restarts: 0, pullAttempts: 0 };
}

/** When the run's current stage ends by itself; undefined if it does not. */
function due(run: ContainerRun, nature: ContainerNature, t: RunTimings): number | undefined {
  switch (run.stage) {
    case 'creating':
      return run.since + t.podStartMs;
    case 'pullError':
      return run.since + PULL_ERROR_MS;
    case 'pullBackOff':
      return run.since + backoffMs(run.pullAttempts);
    case 'configError':
      return run.since + SYNC_RETRY_MS;
    case 'running':
      if (nature.fault === 'crashloop') return (run.startedAt ?? run.since) + t.crashAfterMs;
      if (nature.restartPolicy !== 'Always') return (run.startedAt ?? run.since) + t.jobRunMs;
      return undefined;
    case 'backOff':
      return run.since + backoffMs(run.restarts);
    case 'exited':
      return undefined;
  }
}

/** The kubelet makes the container (its environment first) and starts it. */
function start(run: ContainerRun, at: number, nature: ContainerNature): [ContainerRun, Happening] {
  if (nature.configProblem !== undefined)
    return [{ ...run, stage: 'configError', since: at, configError: nature.configProblem }, 'configFailed'];
  const { configError: _gone, ...rest } = run;
  return [withFields(rest, { stage: 'running', since: at, startedAt: at }), 'started'];
}

function step(run: ContainerRun, at: number, nature: ContainerNature): [ContainerRun, Happening] {
  switch (run.stage) {
    case 'creating':
    case 'pullBackOff':
      if (nature.fault === 'nopull')
        return [{ ...run, stage: 'pullError', since: at, pullAttempts: run.pullAttempts + 1 }, 'pullFailed'];
      return start(run, at, nature);
    case 'configError':
      return start(run, at, nature);
    case 'pullError':
      return [{ ...run, stage: 'pullBackOff', since: at }, 'pullBackOff'];
    case 'running': {
      const code = nature.fault === 'crashloop' ? 1 : nature.exitCode;
      const last: Termination = {
        exitCode: code,
        reason: code === 0 ? 'Completed' : 'Error',
        startedAt: run.startedAt ?? run.since,
        finishedAt: at,
      };
      const restart = nature.restartPolicy === 'Always' || (nature.restartPolicy === 'OnFailure' && code !== 0);
      if (!restart) return [{ ...run, stage: 'exited', since: at, last }, 'exited'];
      return [{ ...run, stage: 'backOff', since: at, last, restarts: run.restarts + 1 }, 'backOff'];
    }
    case 'backOff':
      return start(run, at, nature);
    case 'exited':
      return [run, 'exited'];
  }
}

export interface Advanced {
  run: ContainerRun;
  happened: Happening[];
  /** When to look at this container again, if its stage ends by itself. */
  next?: number;
}

/** Moves a container through every stage change due by `now`. */
export function advance(run: ContainerRun, now: number, nature: ContainerNature, t: RunTimings): Advanced {
  const happened: Happening[] = [];
  let cur = run;
  for (let guard = 0; guard < 64; guard++) {
    const d = due(cur, nature, t);
    if (d === undefined || d > now) return d === undefined ? { run: cur, happened } : { run: cur, happened, next: d };
    const [nextRun, what] = step(cur, d, nature);
    happened.push(what);
    cur = nextRun;
  }
  return { run: cur, happened, next: now };
}
