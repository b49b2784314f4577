/**
 * A pod's status as the kubelet reports it, worked out from its containers' runs: the container
 * statuses (state, last state, restarts, readiness), the phase, and the conditions in the
 * kubelet's order, each keeping its lastTransitionTime while its status holds.
 */
import { createHash } from 'node:crypto';
import { withFields } from '../json.js';
import { rfc3339 } from '../time.js';
import type { ContainerRun } from './container-run.js';
import { backoffMs } from './container-run.js';
import type { Condition, ContainerState, ContainerStatus, Pod, PodStatus } from './kinds.js';

function containerId(podUid: string, name: string, restarts: number): string {
  return `containerd://${createHash('sha256').update(`${podUid}/${name}/${restarts}`).digest('hex')}`;
}

function imageId(image: string): string {
  const repo = image.split('@')[0]!.replace(/:[^/]*$/, '');
  return `${repo}@sha256:${createHash('sha256').update(image).digest('hex')}`;
}

function terminated(t: NonNullable<ContainerRun['last']>, id: string): ContainerState {
  return {
    terminated: {
      exitCode: t.exitCode,
      reason: t.reason,
      startedAt: rfc3339(t.startedAt),
      finishedAt: rfc3339(t.finishedAt),
      containerID: id,
    },
  };
}

function stateOf(pod: Pod, name: string, image: string, run: ContainerRun): ContainerState {
  const podName = `${pod.metadata.name ?? ''}_${pod.metadata.namespace ?? ''}(${pod.metadata.uid ?? ''})`;
  switch (run.stage) {
    case 'creating':
      return { waiting: { reason: 'ContainerCreating' } };
    case 'pullError':
      return {
        waiting: {
          reason: 'ErrImagePull',
          message: `rpc error: code = NotFound desc = failed to pull and unpack image "${image}": not found`,
        },
      };
    case 'pullBackOff':
      return { waiting: { reason: 'ImagePullBackOff', message: `Back-off pulling image "${image}"` } };
    case 'configError':
      return { waiting: { reason: 'CreateContainerConfigError', message: run.configError } };
    case 'running':
      return { running: { startedAt: rfc3339(run.startedAt ?? run.since) } };
    case 'backOff':
      return {
        waiting: {
          reason: 'CrashLoopBackOff',
          message: `back-off ${backoffMs(run.restarts) / 1000}s restarting failed container=${name} pod=${podName}`,
        },
      };
    case 'exited':
      return terminated(run.last!, containerId(pod.metadata.uid ?? '', name, run.restarts));
  }
}

export function containerStatus(
  pod: Pod,
  name: string,
  image: string,
  run: ContainerRun,
  ready: boolean,
): ContainerStatus {
  const started = run.stage === 'running';
  const everStarted = run.startedAt !== undefined;
  const s: ContainerStatus = {
    name,
    image,
    imageID: everStarted ? imageId(image) : '',
    ready,
    started,
    restartCount: run.restarts,
    state: stateOf(pod, name, image, run),
    lastState:
      run.stage !== 'exited' && run.last
        ? terminated(run.last, containerId(pod.metadata.uid ?? '', name, run.restarts - 1))
        : {},
  };
  if (everStarted) s.containerID = containerId(pod.metadata.uid ?? '', name, run.restarts);
  return s;
}

/** A condition that keeps its transition time while its status does not change. */
function cond(
  old: readonly Condition[],
  type: string,
  status: Condition['status'],
  now: string,
  observedGeneration: number | undefined,
  reason?: string,
  message?: string,
): Condition {
  const prev = old.find((c) => c.type === type);
  const c: Condition = { type, status };
  if (observedGeneration !== undefined) c.observedGeneration = observedGeneration;
  c.lastProbeTime = null;
  c.lastTransitionTime = prev && prev.status === status ? (prev.lastTransitionTime ?? now) : now;
  if (reason) c.reason = reason;
  if (message) c.message = message;
  return c;
}

export interface PodView {
  hostIP: string;
  podIP: string;
  startTime: string;
  statuses: ContainerStatus[];
  initStatuses: ContainerStatus[];
  /** The pod's own readiness gates, all True. */
  gatesPass: boolean;
  /** When its containers became ready (the last probe to pass), if they are: Ready's transition time. */
  readySince?: number;
}

export function podStatus(pod: Pod, v: PodView, now: number): PodStatus {
  const t = rfc3339(now);
  const old = pod.status?.conditions ?? [];
  const gen = pod.metadata.generation;
  const stages = v.statuses.map((s) => s.state);
  const allExited = stages.length > 0 && stages.every((s) => s.terminated !== undefined);
  const anyStarted = v.statuses.some((s) => s.started || s.restartCount > 0 || s.lastState.terminated !== undefined);
  let phase: PodStatus['phase'] = 'Pending';
  if (allExited) phase = v.statuses.every((s) => s.state.terminated?.exitCode === 0) ? 'Succeeded' : 'Failed';
  else if (anyStarted) phase = 'Running';
  const unready = v.statuses.filter((s) => !s.ready).map((s) => s.name);
  const containersReady = unready.length === 0;
  const initialized = v.initStatuses.every((s) => s.state.terminated?.exitCode === 0);
  const terminal = phase === 'Succeeded' || phase === 'Failed';
  const notReady = (type: string) =>
    terminal
      ? cond(old, type, 'False', t, gen, 'PodCompleted')
      : cond(
          old,
          type,
          'False',
          t,
          gen,
          'ContainersNotReady',
          `containers with unready status: [${unready.join(' ')}]`,
        );
  // a kubelet's prober ticks on its own: the pod turned Ready when the probe passed, however late
  // the reconcile that sees it (readiness gates, which others set, turn it Ready when they pass)
  const readyAt = v.readySince === undefined || (pod.spec.readinessGates ?? []).length > 0 ? t : rfc3339(v.readySince);
  const readyCond =
    containersReady && v.gatesPass && !terminal ? cond(old, 'Ready', 'True', readyAt, gen) : notReady('Ready');
  const conditions: Condition[] = [
    cond(old, 'PodReadyToStartContainers', terminal ? 'False' : 'True', t, gen),
    initialized
      ? cond(old, 'Initialized', 'True', t, gen)
      : cond(
          old,
          'Initialized',
          'False',
          t,
          gen,
          'ContainersNotInitialized',
          `containers with incomplete status: [${v.initStatuses.map((s) => s.name).join(' ')}]`,
        ),
    readyCond,
    containersReady && !terminal ? cond(old, 'ContainersReady', 'True', readyAt, gen) : notReady('ContainersReady'),
    old.find((c) => c.type === 'PodScheduled') ?? cond(old, 'PodScheduled', 'True', t, gen),
  ];
  // conditions the kubelet does not own (readiness gates set by others) stay as they are
  for (const c of old) if (!conditions.some((x) => x.type === c.type)) conditions.push(c);
  const status: PodStatus = withFields(pod.status, {
    phase,
    conditions,
    hostIP: v.hostIP,
    hostIPs: [{ ip: v.hostIP }],
    podIP: v.podIP,
    podIPs: [{ ip: v.podIP }],
    startTime: v.startTime,
    containerStatuses: v.statuses,
  });
  if (v.initStatuses.length > 0) status.initContainerStatuses = v.initStatuses;
  if (gen !== undefined) status.observedGeneration = gen;
  return status;
}
