/**
 * The kubelets of all fake nodes: they run each bound pod's containers through their simulated
 * lifecycle (ContainerCreating → Running → Ready, or the faults an image or the cluster asks
 * for), report it as pod status, and finish graceful deletions. A kubelet on a NotReady node is
 * silent: its pods stay as they were until the node comes back.
 */
import { clone, isMap, withFields } from '../json.js';
import { commitUpdate } from '../api/write.js';
import { READINESS_DELAY_ANNOTATION } from '../faults.js';
import { parseDuration } from '../../model/duration.js';
import { rfc3339 } from '../time.js';
import { advance, newRun, type ContainerNature, type ContainerRun, type Happening } from './container-run.js';
import type { Container, Node, Pod } from './kinds.js';
import type { Controller } from './manager.js';
import { isNodeReady } from './nodes.js';
import { containerStatus, podStatus } from './pod-status.js';
import { containerConfigProblem, mountRetryMs, volumeProblem, type ConfigLookup } from './config-refs.js';
import { get, keyOf, removeNow, typeOf, wake, writeStatus, type ControllerContext } from './runtime.js';

const KUBELET = 'kubelet';

interface PodMemory {
  uid: string;
  runs: Map<string, ContainerRun>;
  /** When the kubelet started stopping the pod's containers. */
  stoppingSince?: number;
  /** Its ConfigMap and Secret volumes are mounted: its containers can be made. */
  mounted: boolean;
  /** Mounts that failed in a row, and when the volume manager tries again. */
  mountFailures: number;
  mountRetryAt: number;
}

/** A pod some earlier kubelet run got past its volumes for (restored from a snapshot). */
const pastMount = (pod: Pod) =>
  (pod.status?.containerStatuses ?? []).some((s) => s.state.waiting?.reason !== 'ContainerCreating');

function tagOf(image: string): string {
  const lastSlash = image.lastIndexOf('/');
  const colon = image.indexOf(':', lastSlash + 1);
  return colon < 0 ? '' : image.slice(colon + 1);
}

/** A restored pod (from a snapshot) carries on from what its status says. */
function runFromStatus(pod: Pod, name: string, now: number): ContainerRun {
  const s = pod.status?.containerStatuses?.find((c) => c.name === name);
  const started = s?.state.running?.startedAt;
  if (started)
    return { stage: 'running', since: now, startedAt: Date.parse(started), restarts: s.restartCount, pullAttempts: 0 };
  return { ...newRun(now), restarts: s?.restartCount ?? 0 };
}

export function kubeletController(ctx: ControllerContext): Controller {
  const pods = typeOf(ctx, '', 'pods');
  const nodes = typeOf(ctx, '', 'nodes');
  const sources = { ConfigMap: typeOf(ctx, '', 'configmaps'), Secret: typeOf(ctx, '', 'secrets') };
  const memory = new Map<string, PodMemory>();

  const lookupIn =
    (pod: Pod): ConfigLookup =>
    (kind, name) =>
      get(ctx, sources[kind], `${pod.metadata.namespace ?? ''}/${name}`);

  const nature = (pod: Pod, c: Container): ContainerNature => ({
    fault: ctx.faults.containerFault(c.image),
    restartPolicy: pod.spec.restartPolicy ?? 'Always',
    exitCode: tagOf(c.image) === 'fail' ? 1 : 0,
    configProblem: containerConfigProblem(pod, c, lookupIn(pod)),
  });

  const readinessDelay = (pod: Pod, c: Container): number => {
    const annotated = pod.metadata.annotations?.[READINESS_DELAY_ANNOTATION];
    const fromAnnotation = annotated === undefined ? undefined : parseDuration(annotated);
    const base = fromAnnotation ?? ctx.faults.current.readinessDelayMs ?? ctx.timings.readinessDelayMs;
    const probe = c.readinessProbe;
    if (!probe) return base;
    // a kubelet probes every periodSeconds and skips the probes before initialDelaySeconds, so
    // the first probe that can pass is the first tick at or after the initial delay
    const period = Math.max(1, probe.periodSeconds ?? 10);
    const initial = Math.max(0, probe.initialDelaySeconds ?? 0);
    return Math.max(base, Math.ceil(initial / period) * period * 1000);
  };

  const podIp = (pod: Pod, node: Node): string => {
    if (pod.status?.podIP) return pod.status.podIP;
    const base = (node.spec.podCIDR ?? '10.244.0.0/24').split('/')[0]!.split('.').slice(0, 3).join('.');
    for (let i = 2; i < 255; i++)
      if (!ctx.pods.ipInUse(node.metadata.name ?? '', `${base}.${i}`)) return `${base}.${i}`;
    return `${base}.254`;
  };

  const pulled = (pod: Pod, c: Container, host: string) =>
    ctx.events.record(
      pod,
      'Normal',
      'Pulled',
      `Container image "${c.image}" already present on machine`,
      KUBELET,
      host,
    );

  const record = (pod: Pod, c: Container, what: Happening, run: ContainerRun, host: string) => {
    switch (what) {
      case 'configFailed':
        // the image is there; making the container is what fails, at every try
        pulled(pod, c, host);
        ctx.events.record(pod, 'Warning', 'Failed', `Error: ${run.configError ?? ''}`, KUBELET, host);
        break;
      case 'started':
        pulled(pod, c, host);
        ctx.events.record(pod, 'Normal', 'Created', `Created container: ${c.name}`, KUBELET, host);
        ctx.events.record(pod, 'Normal', 'Started', `Started container ${c.name}`, KUBELET, host);
        break;
      case 'pullFailed':
        ctx.events.record(
          pod,
          'Warning',
          'Failed',
          `Failed to pull image "${c.image}": rpc error: code = NotFound desc = not found`,
          KUBELET,
          host,
        );
        ctx.events.record(pod, 'Warning', 'Failed', 'Error: ErrImagePull', KUBELET, host);
        break;
      case 'pullBackOff':
        ctx.events.record(pod, 'Normal', 'BackOff', `Back-off pulling image "${c.image}"`, KUBELET, host);
        break;
      case 'backOff':
        ctx.events.record(
          pod,
          'Warning',
          'BackOff',
          `Back-off restarting failed container ${c.name} in pod ${pod.metadata.name ?? ''}_${pod.metadata.namespace ?? ''}(${pod.metadata.uid ?? ''})`,
          KUBELET,
          host,
        );
        break;
      default:
        break;
    }
  };

  const c: Controller = {
    name: 'kubelet',
    follows: {
      '/pods': (e) => [keyOf(e.object)],
      // a node coming back wakes the pods its kubelet left alone
      '/nodes': (e) => (isNodeReady(e.object as Node) ? [...ctx.pods.podsOn(e.object.metadata.name ?? '')] : []),
    },
    initialKeys: () => ctx.api.store.list('/pods').map(keyOf),
    // what a pod's containers do next is set by a wake-up, not by the status it just wrote
    settlesItsOwnWrites: true,
    reconcile(key) {
      const pod = get<Pod>(ctx, pods, key);
      if (!pod) {
        memory.delete(key);
        return;
      }
      const nodeName = pod.spec.nodeName;
      if (!nodeName) return;
      const node = get<Node>(ctx, nodes, `/${nodeName}`);
      if (!node || ctx.faults.current.notReadyNodes.includes(nodeName)) return;
      const now = ctx.api.clock.now();
      let mem = memory.get(key);
      if (!mem || mem.uid !== pod.metadata.uid) {
        mem = {
          uid: pod.metadata.uid ?? '',
          runs: new Map(),
          mounted: pastMount(pod),
          mountFailures: 0,
          mountRetryAt: 0,
        };
        memory.set(key, mem);
      }
      if (pod.metadata.deletionTimestamp) return stop(pod, mem, now);
      if (pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed') return;

      // the volumes first: until they are mounted no container is made, and the containers'
      // start takes its time from the mount
      if (!mem.mounted && now >= mem.mountRetryAt) {
        const mountProblem = volumeProblem(pod, lookupIn(pod));
        if (mountProblem === undefined) {
          mem.mounted = true;
          if (mem.mountFailures > 0) mem.runs.clear();
        } else {
          mem.mountFailures++;
          mem.mountRetryAt = now + mountRetryMs(mem.mountFailures);
          ctx.events.record(pod, 'Warning', 'FailedMount', mountProblem, KUBELET, nodeName);
        }
      }
      // its containers start from nothing: a new pod, or one whose volumes were only now mounted
      // (a pod the kubelet knew nothing of carries on from its status)
      const fromScratch = pod.status?.startTime === undefined || mem.mountFailures > 0;
      if (mem.mounted && mem.runs.size === 0 && fromScratch)
        ctx.events.record(
          pod,
          'Normal',
          'Pulling',
          `Pulling image "${pod.spec.containers[0]?.image ?? ''}"`,
          KUBELET,
          nodeName,
        );
      let next = Infinity;
      let initDone = mem.mounted;
      /** When the last container's readiness probe passed: the reconcile that sees it may come later. */
      let readySince: number | undefined;
      const statuses = pod.spec.containers.map((ctr) => {
        if (!mem.mounted) return containerStatus(pod, ctr.name, ctr.image, newRun(now), false);
        const before = mem.runs.get(ctr.name) ?? (fromScratch ? newRun(now) : runFromStatus(pod, ctr.name, now));
        const what = nature(pod, ctr);
        const moved = advance(before, now, what, ctx.timings);
        mem.runs.set(ctr.name, moved.run);
        for (const h of moved.happened) record(pod, ctr, h, moved.run, nodeName);
        if (moved.next !== undefined) next = Math.min(next, moved.next);
        if (moved.run.stage === 'creating') initDone = false;
        const fault = what.fault;
        const readyAt = (moved.run.startedAt ?? now) + readinessDelay(pod, ctr);
        const ready =
          moved.run.stage === 'running' && fault !== 'neverready' && fault !== 'crashloop' && now >= readyAt;
        if (moved.run.stage === 'running' && !ready && fault === undefined) next = Math.min(next, readyAt);
        if (ready) readySince = Math.max(readySince ?? readyAt, readyAt);
        return containerStatus(pod, ctr.name, ctr.image, moved.run, ready);
      });
      // init containers are taken to finish as the pod's sandbox comes up
      const initStatuses = (pod.spec.initContainers ?? []).map((ic) => {
        const run = initDone
          ? {
              ...newRun(now),
              stage: 'exited' as const,
              startedAt: now,
              last: { exitCode: 0, reason: 'Completed', startedAt: now, finishedAt: now },
            }
          : newRun(now);
        const s = containerStatus(pod, ic.name, ic.image, run, false);
        const prev = pod.status?.initContainerStatuses?.find((x) => x.name === ic.name);
        return prev?.state.terminated && initDone ? prev : s;
      });
      const gates = pod.spec.readinessGates ?? [];
      const gatesPass = gates.every((g) =>
        pod.status?.conditions?.some((x) => x.type === g.conditionType && x.status === 'True'),
      );
      const hostIP = node.status?.addresses?.find((a) => a.type === 'InternalIP')?.address ?? '10.0.0.1';
      const status = podStatus(
        pod,
        {
          hostIP,
          podIP: podIp(pod, node),
          startTime: pod.status?.startTime ?? rfc3339(now),
          statuses,
          initStatuses,
          gatesPass,
          ...(readySince !== undefined ? { readySince } : {}),
        },
        now,
      );
      writeStatus(ctx, pods, pod, status, KUBELET);
      if (!mem.mounted) next = mem.mountRetryAt;
      if (next !== Infinity) wake(ctx, c, key, next - now);
    },
  };

  /** A deleted pod: its containers stop (not ready at once), then it is gone. */
  function stop(pod: Pod, mem: PodMemory, now: number): void {
    const key = keyOf(pod);
    if (mem.stoppingSince === undefined) {
      mem.stoppingSince = now;
      for (const ctr of pod.spec.containers)
        ctx.events.record(pod, 'Normal', 'Killing', `Stopping container ${ctr.name}`, KUBELET, pod.spec.nodeName);
      const conds = (pod.status?.conditions ?? []).map((x) =>
        (x.type === 'Ready' || x.type === 'ContainersReady') && x.status === 'True'
          ? withFields(x, { status: 'False', reason: 'PodTerminating', lastTransitionTime: rfc3339(now) })
          : x,
      );
      const statuses = (pod.status?.containerStatuses ?? []).map((s) => ({ ...s, ready: false }));
      if (isMap(pod.status))
        writeStatus(ctx, pods, pod, { ...pod.status, conditions: conds, containerStatuses: statuses }, KUBELET);
    }
    const grace = (pod.metadata.deletionGracePeriodSeconds ?? 30) * 1000;
    const doneAt = mem.stoppingSince + Math.min(grace, ctx.timings.terminationMs);
    if (now >= doneAt) {
      const current = get<Pod>(ctx, pods, key);
      memory.delete(key);
      if (!current) return;
      // with finalizers left, the kubelet's final delete (grace 0) waits for them to go
      if ((current.metadata.finalizers ?? []).length > 0) {
        const deletion = { timestamp: current.metadata.deletionTimestamp ?? rfc3339(now), graceSeconds: 0 };
        commitUpdate(ctx.api, pods, current, clone(current), { manager: KUBELET, deletion });
      } else {
        removeNow(ctx, pods, current);
      }
      return;
    }
    wake(ctx, c, key, doneAt - now);
  }

  return c;
}
