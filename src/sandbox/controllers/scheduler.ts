/**
 * The scheduler: binds each new pod to a node that is Ready, schedulable, not tainted against
 * it, matching its nodeSelector and required node affinity, and not full — the least loaded one,
 * ties by name. A pod no node fits is marked Unschedulable with the scheduler's message and
 * tried again whenever a node changes.
 */
import { clone, isMap, withFields } from '../json.js';
import { rfc3339 } from '../time.js';
import { condition, type Condition, type Node, type Pod, type Toleration } from './kinds.js';
import type { Controller } from './manager.js';
import { isNodeReady, NODE_POD_CAPACITY } from './nodes.js';
import { commitUpdate } from '../api/write.js';
import { get, keyOf, typeOf, writeStatus, type ControllerContext } from './runtime.js';

const SCHEDULER = 'default-scheduler';

function tolerates(
  tolerations: readonly Toleration[] | undefined,
  taint: { key: string; value?: string; effect: string },
): boolean {
  return (tolerations ?? []).some((t) => {
    if (t.effect && t.effect !== taint.effect) return false;
    if (t.operator === 'Exists') return !t.key || t.key === taint.key;
    return t.key === taint.key && (t.value ?? '') === (taint.value ?? '');
  });
}

function matchesTerm(term: unknown, node: Node): boolean {
  if (!isMap(term)) return false;
  const labels = node.metadata.labels ?? {};
  const fields: Record<string, string> = { 'metadata.name': node.metadata.name ?? '' };
  const check = (reqs: unknown, values: Record<string, string>) =>
    !Array.isArray(reqs) ||
    reqs.every((r) => {
      if (!isMap(r)) return true;
      const v = values[String(r.key)];
      const vals = Array.isArray(r.values) ? r.values.map(String) : [];
      switch (r.operator) {
        case 'In':
          return v !== undefined && vals.includes(v);
        case 'NotIn':
          return v === undefined || !vals.includes(v);
        case 'Exists':
          return v !== undefined;
        case 'DoesNotExist':
          return v === undefined;
        default:
          return false;
      }
    });
  return check(term.matchExpressions, labels) && check(term.matchFields, fields);
}

/** Why a node cannot take a pod, in the scheduler's words; undefined when it can. */
function misfit(ctx: ControllerContext, pod: Pod, node: Node): string | undefined {
  if (!isNodeReady(node)) return 'node(s) had untolerated taint {node.kubernetes.io/not-ready: }';
  if (node.spec.unschedulable) return 'node(s) were unschedulable';
  for (const taint of node.spec.taints ?? []) {
    if ((taint.effect === 'NoSchedule' || taint.effect === 'NoExecute') && !tolerates(pod.spec.tolerations, taint))
      return `node(s) had untolerated taint {${taint.key}: ${taint.value ?? ''}}`;
  }
  const labels = node.metadata.labels ?? {};
  for (const [k, v] of Object.entries(pod.spec.nodeSelector ?? {}))
    if (labels[k] !== v) return "node(s) didn't match Pod's node affinity/selector";
  const required =
    isMap(pod.spec.affinity) && isMap(pod.spec.affinity.nodeAffinity)
      ? pod.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution
      : undefined;
  if (
    isMap(required) &&
    Array.isArray(required.nodeSelectorTerms) &&
    !required.nodeSelectorTerms.some((t) => matchesTerm(t, node))
  ) {
    return "node(s) didn't match Pod's node affinity/selector";
  }
  if (ctx.pods.activeOn(node.metadata.name ?? '') >= NODE_POD_CAPACITY) return 'Too many pods';
  return undefined;
}

/** `0/3 nodes are available: 2 node(s) were unschedulable, 1 Too many pods.` */
function unschedulableMessage(total: number, reasons: string[]): string {
  const counts = new Map<string, number>();
  for (const r of reasons) counts.set(r, (counts.get(r) ?? 0) + 1);
  const parts = [...counts].sort(([a], [b]) => a.localeCompare(b)).map(([r, n]) => `${n} ${r}`);
  return `0/${total} nodes are available: ${parts.join(', ')}.`;
}

export function schedulerController(ctx: ControllerContext): Controller {
  const pods = typeOf(ctx, '', 'pods');
  const pending = () =>
    ctx.api.store
      .list('/pods')
      .filter((p) => !(p as Pod).spec.nodeName && !p.metadata.deletionTimestamp)
      .map(keyOf);
  const c: Controller = {
    name: 'scheduler',
    follows: {
      '/pods': (e) => {
        const p = e.object as Pod;
        return e.type !== 'DELETED' && !p.spec.nodeName && !p.metadata.deletionTimestamp ? [keyOf(p)] : [];
      },
      // a node that changes may now fit pods that fit nowhere before
      '/nodes': () => pending(),
    },
    initialKeys: pending,
    reconcile(key) {
      const pod = get<Pod>(ctx, pods, key);
      if (!pod || pod.spec.nodeName || pod.metadata.deletionTimestamp) return;
      const all = (ctx.api.store.list('/nodes') as Node[]).sort((a, b) =>
        (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''),
      );
      const reasons: string[] = [];
      let best: { node: Node; load: number } | undefined;
      for (const n of all) {
        const why = misfit(ctx, pod, n);
        if (why) {
          reasons.push(why);
          continue;
        }
        const load = ctx.pods.activeOn(n.metadata.name ?? '');
        if (!best || load < best.load) best = { node: n, load };
      }
      const now = rfc3339(ctx.api.clock.now());
      if (!best) {
        const message =
          all.length === 0 ? 'no nodes available to schedule pods' : unschedulableMessage(all.length, reasons);
        const old = condition(pod.status?.conditions, 'PodScheduled');
        if (old?.message === message) return;
        const cond: Condition = {
          type: 'PodScheduled',
          status: 'False',
          reason: 'Unschedulable',
          message,
          lastProbeTime: null,
          lastTransitionTime: old?.status === 'False' ? (old.lastTransitionTime ?? now) : now,
        };
        writeStatus(
          ctx,
          pods,
          pod,
          {
            ...pod.status,
            conditions: [...(pod.status?.conditions ?? []).filter((x) => x.type !== 'PodScheduled'), cond],
          },
          SCHEDULER,
        );
        ctx.events.record(pod, 'Warning', 'FailedScheduling', message, SCHEDULER);
        return;
      }
      const nodeName = best.node.metadata.name ?? '';
      const scheduled: Condition = {
        type: 'PodScheduled',
        status: 'True',
        lastProbeTime: null,
        lastTransitionTime: now,
      };
      const next = clone(pod);
      next.spec.nodeName = nodeName;
      next.status = withFields(next.status, {
        conditions: [...(next.status?.conditions ?? []).filter((x) => x.type !== 'PodScheduled'), scheduled],
      });
      commitUpdate(ctx.api, pods, pod, next, { manager: SCHEDULER, binding: true });
      ctx.events.record(
        pod,
        'Normal',
        'Scheduled',
        `Successfully assigned ${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''} to ${nodeName}`,
        SCHEDULER,
      );
    },
  };
  return c;
}
