/**
 * The DaemonSet controller: one pod per node its template fits (nodeSelector, taints), pinned
 * there by node affinity and tolerating what DaemonSet pods tolerate; a new template rolls out
 * node by node, at most maxUnavailable pods down at a time.
 */
import { isPodActive, isPodReady, type DaemonSet, type Node, type Pod, type Toleration } from './kinds.js';
import type { Controller } from './manager.js';
import { currentRevision, pruneRevisions, REVISION_HASH } from './revisions.js';
import {
  allKeys,
  byObject,
  byOwner,
  create,
  get,
  ownedPods,
  ownerRef,
  remove,
  typeOf,
  writeStatus,
  type ControllerContext,
} from './runtime.js';
import { isPodAvailable, podFromTemplate, scaled } from './workload-util.js';

/** What the DaemonSet controller adds to every pod it makes, so node trouble does not evict it. */
const DAEMON_TOLERATIONS: Toleration[] = [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
];

function tolerated(
  tolerations: readonly Toleration[],
  taint: { key: string; value?: string; effect: string },
): boolean {
  return tolerations.some(
    (t) =>
      (!t.effect || t.effect === taint.effect) &&
      (t.operator === 'Exists'
        ? !t.key || t.key === taint.key
        : t.key === taint.key && (t.value ?? '') === (taint.value ?? '')),
  );
}

/**
 * Whether a DaemonSet's pod belongs on a node: a new one must tolerate the node's NoSchedule
 * and NoExecute taints; one already there stays unless a NoExecute taint says otherwise.
 */
function fits(ds: DaemonSet, node: Node, alreadyThere: boolean): boolean {
  const labels = node.metadata.labels ?? {};
  for (const [k, v] of Object.entries(ds.spec.template.spec.nodeSelector ?? {})) if (labels[k] !== v) return false;
  const tolerations = [...(ds.spec.template.spec.tolerations ?? []), ...DAEMON_TOLERATIONS];
  const blocking = (t: { effect: string }) => t.effect === 'NoExecute' || (!alreadyThere && t.effect === 'NoSchedule');
  return (node.spec.taints ?? []).every((t) => !blocking(t) || tolerated(tolerations, t));
}

export function daemonSetController(ctx: ControllerContext): Controller {
  const daemonsets = typeOf(ctx, 'apps', 'daemonsets');
  const pods = typeOf(ctx, '', 'pods');
  const c: Controller = {
    name: 'daemonset',
    follows: {
      'apps/daemonsets': byObject(),
      '/pods': byOwner('DaemonSet'),
      '/nodes': () => allKeys(ctx, daemonsets),
    },
    initialKeys: () => allKeys(ctx, daemonsets),
    reconcile(key) {
      const ds = get<DaemonSet>(ctx, daemonsets, key);
      if (!ds || ds.metadata.deletionTimestamp) return;
      const now = ctx.api.clock.now();
      const revision = currentRevision(ctx, ds, ds.spec.template, ds.spec.selector.matchLabels ?? {});
      if (!revision) return;
      // DaemonSet pods carry the bare hash, where StatefulSet pods carry the revision's name
      const hash = revision.name.slice((ds.metadata.name ?? '').length + 1);
      const owned = ownedPods(ctx, ds).filter(isPodActive);
      const byNode = new Map<string, Pod[]>();
      for (const p of owned) {
        const n = p.spec.nodeName ?? nodeOfAffinity(p);
        byNode.set(n, [...(byNode.get(n) ?? []), p]);
      }
      const nodes = (ctx.api.store.list('/nodes') as Node[]).filter((n) =>
        fits(ds, n, byNode.has(n.metadata.name ?? '')),
      );
      const wanted = new Set(nodes.map((n) => n.metadata.name ?? ''));
      let misscheduled = 0;
      for (const [node, ps] of byNode) {
        if (wanted.has(node)) {
          for (const extra of ps.slice(1)) remove(ctx, pods, extra);
          continue;
        }
        misscheduled += ps.length;
        for (const p of ps) remove(ctx, pods, p);
      }
      for (const node of wanted) {
        if (byNode.has(node)) continue;
        const pod = podFromTemplate(ds, ds.spec.template, {
          ref: ownerRef(ds),
          labels: { [REVISION_HASH]: hash, 'pod-template-generation': String(ds.metadata.generation ?? 1) },
        });
        const spec = pod.spec as Pod['spec'];
        spec.affinity = {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [node] }] }],
            },
          },
        };
        spec.tolerations = [
          ...(spec.tolerations ?? []),
          ...DAEMON_TOLERATIONS.filter(
            (t) => !(spec.tolerations ?? []).some((x) => x.key === t.key && x.effect === t.effect),
          ),
        ];
        create(ctx, pods, pod);
      }
      const current = owned.filter((p) => wanted.has(p.spec.nodeName ?? nodeOfAffinity(p)));
      if (ds.spec.updateStrategy.type === 'RollingUpdate') {
        const maxUnavailable = Math.max(
          1,
          scaled(ds.spec.updateStrategy.rollingUpdate?.maxUnavailable ?? 1, wanted.size, true),
        );
        const unavailable =
          wanted.size - current.filter((p) => isPodAvailable(p, ds.spec.minReadySeconds ?? 0, now)).length;
        let budget = maxUnavailable - unavailable;
        for (const p of current) {
          if (budget <= 0) break;
          if (p.metadata.labels?.[REVISION_HASH] === hash || !isPodReady(p)) continue;
          remove(ctx, pods, p);
          budget--;
        }
      }
      const live = ownedPods(ctx, ds).filter((p) => isPodActive(p) && wanted.has(p.spec.nodeName ?? nodeOfAffinity(p)));
      const updated = live.filter((p) => p.metadata.labels?.[REVISION_HASH] === hash);
      const available = live.filter((p) => isPodAvailable(p, ds.spec.minReadySeconds ?? 0, now)).length;
      writeStatus(ctx, daemonsets, ds, {
        observedGeneration: ds.metadata.generation ?? 1,
        desiredNumberScheduled: wanted.size,
        currentNumberScheduled: new Set(live.map((p) => p.spec.nodeName ?? nodeOfAffinity(p))).size,
        numberMisscheduled: misscheduled,
        numberReady: live.filter(isPodReady).length,
        updatedNumberScheduled: updated.length,
        numberAvailable: available,
        numberUnavailable: Math.max(0, wanted.size - available),
      });
      pruneRevisions(ctx, ds, ds.spec.revisionHistoryLimit, new Set([revision.name]));
    },
  };
  return c;
}

/** The node a not-yet-scheduled DaemonSet pod is pinned to. */
function nodeOfAffinity(p: Pod): string {
  const a = p.spec.affinity as
    | {
        nodeAffinity?: {
          requiredDuringSchedulingIgnoredDuringExecution?: {
            nodeSelectorTerms?: { matchFields?: { values?: string[] }[] }[];
          };
        };
      }
    | undefined;
  return (
    a?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms?.[0]?.matchFields?.[0]
      ?.values?.[0] ?? ''
  );
}
