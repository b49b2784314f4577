/**
 * How low each workload's availability goes during a rehearsal, and when: every pod event of
 * the rehearsal's sandbox clusters (in process, in order) recounts the available pods (Ready and
 * not going) of the workload the pod belongs to, timed on the rehearsal's clock.
 */
import { conditionMet } from '../../health/rules.js';
import type { KubeObject } from '../../model/kube-object.js';
import { asObject } from '../../model/resource.js';
import type { ReadinessEstimate } from '../../recovery/rehearsal-readiness.js';
import { topWorkload, uidOf, type ClusterShape } from './seed.js';
import type { WorkloadForecast } from '../../recovery/rehearsal.js';
import type { Sandbox } from '../../sandbox/index.js';
import { desired } from '../../workflows/recovery/cluster-steps.js';

const nameOf = (o: KubeObject) => String(o.metadata?.name ?? '');
const deleting = (p: KubeObject) => asObject(p.metadata).deletionTimestamp !== undefined;

/** A workload's desired replicas, as the gate reads them; a pod no workload owns is its own one. */
const desiredOf = (o: KubeObject | undefined) => (!o || o.kind === 'Pod' ? 1 : desired(o));

/** Follows each workload's available (Ready, not going) pods through the sandbox's pod events. */
export class AvailabilityWatch {
  private readonly forecasts = new Map<string, WorkloadForecast>();
  private readonly offs: (() => void)[] = [];

  constructor(
    sandbox: Sandbox,
    shapes: readonly ClusterShape[],
    readiness: ReadonlyMap<string, ReadinessEstimate>,
    private readonly elapsed: () => number,
  ) {
    for (const shape of shapes) {
      const cluster = sandbox.cluster(shape.cluster);
      const known = [...shape.workloads, ...shape.pods];
      const topOf = new Map(known.map((o) => [uidOf(o), topWorkload(shape.cluster, o, known)]));
      const pods = new Map(shape.pods.map((p) => [uidOf(p), p]));
      const workloadOf = (pod: KubeObject): string | undefined => {
        const top = topOf.get(uidOf(pod));
        if (top) return top;
        // a replacement: its owner is known, or is a ReplicaSet made during the run (a rollout restart)
        const found = topWorkload(shape.cluster, pod, [...cluster.store.list('apps/replicasets'), ...known]);
        topOf.set(uidOf(pod), found);
        return found;
      };
      for (const top of new Set(shape.pods.map((p) => topOf.get(uidOf(p))!))) {
        const owner = known.find(
          (o) => `${shape.cluster}/${String(o.metadata?.namespace ?? '')}/${o.kind}/${nameOf(o)}` === top,
        );
        const available = this.count(top, pods, workloadOf);
        this.forecasts.set(top, {
          workload: top,
          desired: desiredOf(owner),
          availableBefore: available,
          minAvailable: available,
          minAtMs: 0,
          readiness: readiness.get(top)!,
        });
      }
      this.offs.push(
        cluster.store.subscribe((e) => {
          if (e.resource !== '/pods') return;
          const pod = e.object as KubeObject;
          if (e.type === 'DELETED') pods.delete(uidOf(pod));
          else pods.set(uidOf(pod), pod);
          const top = workloadOf(pod);
          const f = top ? this.forecasts.get(top) : undefined;
          if (!f) return;
          const now = this.count(top!, pods, workloadOf);
          if (now < f.minAvailable) {
            f.minAvailable = now;
            f.minAtMs = this.elapsed();
          }
        }),
      );
    }
  }

  private count(top: string, pods: Map<string, KubeObject>, workloadOf: (p: KubeObject) => string | undefined) {
    let n = 0;
    for (const p of pods.values()) if (!deleting(p) && conditionMet(p, 'Ready') && workloadOf(p) === top) n++;
    return n;
  }

  result(): WorkloadForecast[] {
    return [...this.forecasts.values()].sort((a, b) => (a.workload < b.workload ? -1 : 1));
  }

  close(): void {
    for (const off of this.offs) off();
  }
}
