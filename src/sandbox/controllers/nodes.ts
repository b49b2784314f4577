/**
 * The fake nodes and their lifecycle. Each cluster starts with a few Ready nodes (hostnames
 * `<cluster>-node-<n>`, 110 pods each, as a real kubelet allows). A node named in the
 * `notReadyNodes` fault stops "reporting": Ready becomes Unknown, it is tainted unreachable, its
 * pods turn not-ready and are evicted once their toleration (300 s by default) runs out. When the
 * fault clears the node is Ready again and its kubelet resumes.
 */
import { clone } from '../json.js';
import type { KubeObject } from '../api/object.js';
import { parseTime, rfc3339 } from '../time.js';
import { condition, type Condition, type Node, type Pod } from './kinds.js';
import type { Controller } from './manager.js';
import { byObject, create, get, remove, typeOf, update, wake, writeStatus, type ControllerContext } from './runtime.js';

export const NODE_POD_CAPACITY = 110;
const UNREACHABLE = 'node.kubernetes.io/unreachable';
const UNSCHEDULABLE = 'node.kubernetes.io/unschedulable';
const KUBELET_VERSION = 'v1.34.1';

export function nodeName(cluster: string, i: number): string {
  return `${cluster}-node-${i + 1}`;
}

/** A Ready node as a kubelet registers it. */
export function nodeObject(cluster: string, i: number, now: number): KubeObject {
  const name = nodeName(cluster, i);
  const t = rfc3339(now);
  const cond = (type: string, status: 'True' | 'False', reason: string, message: string): Condition => ({
    type,
    status,
    lastHeartbeatTime: t,
    lastTransitionTime: t,
    reason,
    message,
  });
  const resources = { cpu: '8', memory: '32Gi', pods: String(NODE_POD_CAPACITY), 'ephemeral-storage': '100Gi' };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: {
        'kubernetes.io/hostname': name,
        'kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        'node.kubernetes.io/instance-type': 'sandbox',
        'topology.kubernetes.io/zone': `zone-${String.fromCharCode(97 + (i % 3))}`,
      },
    },
    spec: { podCIDR: `10.244.${i}.0/24`, podCIDRs: [`10.244.${i}.0/24`] },
    status: {
      capacity: resources,
      allocatable: resources,
      conditions: [
        cond('MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'),
        cond('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
        cond('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
        cond('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'),
      ],
      addresses: [
        { type: 'InternalIP', address: `10.0.0.${10 + i}` },
        { type: 'Hostname', address: name },
      ],
      nodeInfo: {
        machineID: `sandbox-${cluster}-${i + 1}`,
        systemUUID: `sandbox-${cluster}-${i + 1}`,
        bootID: `sandbox-${cluster}-${i + 1}`,
        kernelVersion: '6.1.0-sandbox',
        osImage: 'kdeck sandbox',
        containerRuntimeVersion: 'sandbox://1.0.0',
        kubeletVersion: KUBELET_VERSION,
        kubeProxyVersion: KUBELET_VERSION,
        operatingSystem: 'linux',
        architecture: 'amd64',
      },
    },
  };
}

/** Where kubelets keep their heartbeat Leases, and how often they renew them. */
export const NODE_LEASE_NAMESPACE = 'kube-node-lease';
const LEASE_RENEW_MS = 10_000;
const LEASE_DURATION_SECONDS = 40;

/** MicroTime: RFC3339 with six fractional digits, as Lease times are written. */
function microTime(ms: number): string {
  return `${new Date(Math.floor(ms)).toISOString().slice(0, 23)}000Z`;
}

/**
 * The node's Lease in kube-node-lease (kubectl describe node reads it): created with the node,
 * owned by it (so it goes with it), renewed while the node reports.
 */
function renewNodeLease(ctx: ControllerContext, leases: ReturnType<typeof typeOf>, node: Node, now: number): void {
  const name = node.metadata.name ?? '';
  const old = ctx.api.store.get('coordination.k8s.io/leases', NODE_LEASE_NAMESPACE, name);
  if (!old) {
    create(
      ctx,
      leases,
      {
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: {
          name,
          namespace: NODE_LEASE_NAMESPACE,
          ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name, uid: node.metadata.uid ?? '' }],
        },
        spec: {
          holderIdentity: name,
          leaseDurationSeconds: LEASE_DURATION_SECONDS,
          renewTime: microTime(now),
        },
      },
      'kubelet',
    );
    return;
  }
  const renewed = Date.parse(String((old.spec as { renewTime?: string } | undefined)?.renewTime ?? ''));
  if (!Number.isNaN(renewed) && now - renewed < LEASE_RENEW_MS) return;
  const next = clone(old);
  next.spec = { ...(next.spec as object), renewTime: microTime(now) };
  update(ctx, leases, old, next, 'kubelet');
}

export function isNodeReady(n: Node): boolean {
  return condition(n.status?.conditions, 'Ready')?.status === 'True';
}

function readyCondition(ready: boolean, old: Condition | undefined, now: string): Condition {
  const status = ready ? 'True' : 'Unknown';
  // no heartbeats: a node's status changes only when its readiness does
  if (old?.status === status) return old;
  const c: Condition = ready
    ? {
        type: 'Ready',
        status,
        reason: 'KubeletReady',
        message: 'kubelet is posting ready status',
        lastHeartbeatTime: now,
      }
    : {
        type: 'Ready',
        status,
        reason: 'NodeStatusUnknown',
        message: 'Kubelet stopped posting node status.',
        lastHeartbeatTime: old?.lastHeartbeatTime ?? now,
      };
  c.lastTransitionTime = now;
  return c;
}

export function nodeLifecycleController(ctx: ControllerContext): Controller {
  const nodes = typeOf(ctx, '', 'nodes');
  const pods = typeOf(ctx, '', 'pods');
  const leases = typeOf(ctx, 'coordination.k8s.io', 'leases');
  const c: Controller = {
    name: 'node-lifecycle',
    follows: { '/nodes': byObject() },
    initialKeys: () => ctx.api.store.list('/nodes').map((n) => `/${n.metadata.name ?? ''}`),
    reconcile(key) {
      const node = get<Node>(ctx, nodes, key);
      if (!node) return;
      const name = node.metadata.name ?? '';
      const down = ctx.faults.current.notReadyNodes.includes(name);
      const now = ctx.api.clock.now();
      const t = rfc3339(now);
      const conds = (node.status?.conditions ?? []).map((x) => (x.type === 'Ready' ? readyCondition(!down, x, t) : x));
      const taints = (node.spec.taints ?? []).filter((x) => x.key !== UNREACHABLE && x.key !== UNSCHEDULABLE);
      // a cordoned node carries the taint that keeps pods off it (TaintNodesByCondition)
      if (node.spec.unschedulable === true) {
        const since = node.spec.taints?.find((x) => x.key === UNSCHEDULABLE)?.timeAdded ?? t;
        taints.push({ key: UNSCHEDULABLE, effect: 'NoSchedule', timeAdded: since });
      }
      if (down) {
        const since = node.spec.taints?.find((x) => x.key === UNREACHABLE)?.timeAdded ?? t;
        taints.push(
          { key: UNREACHABLE, effect: 'NoSchedule', timeAdded: since },
          { key: UNREACHABLE, effect: 'NoExecute', timeAdded: since },
        );
      }
      const next = clone(node);
      if (taints.length > 0) next.spec.taints = taints;
      else delete next.spec.taints;
      const written = update(ctx, nodes, node, next);
      writeStatus(ctx, nodes, written, { ...written.status, conditions: conds });
      // a kubelet that reports renews its node's Lease; a silent one leaves it to go stale
      if (!down) {
        renewNodeLease(ctx, leases, written, now);
        wake(ctx, c, key, LEASE_RENEW_MS);
      }
      if (down)
        evictFromLostNode(
          ctx,
          c,
          key,
          name,
          parseTime(written.spec.taints?.find((x) => x.key === UNREACHABLE)?.timeAdded) ?? now,
          pods,
        );
    },
  };
  ctx.faults.onChange(() => {
    for (const n of ctx.api.store.list('/nodes')) ctx.manager.enqueue(c, `/${n.metadata.name ?? ''}`);
  });
  return c;
}

/** Pods on a lost node turn not-ready at once and are deleted once they stop tolerating it. */
function evictFromLostNode(
  ctx: ControllerContext,
  c: Controller,
  key: string,
  node: string,
  since: number,
  pods: ReturnType<typeof typeOf>,
): void {
  const now = ctx.api.clock.now();
  let nextWake = Infinity;
  for (const podKey of ctx.pods.podsOn(node)) {
    const pod = get<Pod>(ctx, pods, podKey);
    if (!pod || pod.metadata.deletionTimestamp) continue;
    const conds = pod.status?.conditions ?? [];
    if (conds.some((x) => x.type === 'Ready' && x.status === 'True')) {
      const t = rfc3339(now);
      const next = conds.map((x) =>
        x.type === 'Ready' ? { ...x, status: 'False' as const, reason: 'NodeNotReady', lastTransitionTime: t } : x,
      );
      writeStatus(ctx, pods, pod, { ...pod.status, conditions: next }, 'node-controller');
    }
    const tol = pod.spec.tolerations?.find(
      (x) => x.key === UNREACHABLE && (x.effect === 'NoExecute' || x.effect === undefined),
    );
    const seconds = tol ? (tol.tolerationSeconds ?? Infinity) : 0;
    const due = since + seconds * 1000;
    if (due <= now) remove(ctx, pods, pod);
    else nextWake = Math.min(nextWake, due);
  }
  if (nextWake !== Infinity) wake(ctx, c, key, nextWake - now);
}
