/**
 * What a rehearsal of a recovery found: the run's plan carried out against an embedded copy of
 * its clusters, told as a forecast (how long per cluster and overall, how low each workload's
 * availability goes and when, every gate decision and refused eviction, the batches that would
 * pause), set beside the lower bound no run can beat, with what a rehearsal cannot know. Times
 * are in ms of real time from the run's approval. Pure types and the lower bound.
 */
import type { OnFailure, RecoveryAction } from './plan.js';
import type { ReadinessEstimate } from './rehearsal-readiness.js';

export interface Rehearsal {
  runbook: string;
  action: RecoveryAction;
  /** Real time per unit of the sandbox's time: 0.25 ran four times as fast as the real clusters would. */
  timeScale: number;
  /** How long the rehearsal itself took, in real ms. */
  tookMs: number;
  predicted: { overallMs: number; clusters: ClusterForecast[] };
  batches: BatchForecast[];
  workloads: WorkloadForecast[];
  gates: GateDecision[];
  refusals: EvictionRefusal[];
  pauses: BatchPause[];
  lowerBound: LowerBound;
  /** predicted.overallMs ÷ lowerBound.overallMs. */
  ratio: number;
  /** What the rehearsal could not know, in sentences. */
  limits: string[];
}

export interface ClusterForecast {
  cluster: string;
  wallMs: number;
  end: 'done' | 'stopped' | 'aborted';
}

export interface BatchForecast {
  cluster: string;
  /** 1-based within its cluster. */
  index: number;
  /** `namespace/Kind/name` of each target. */
  targets: string[];
  /** When its gate started to look. */
  startMs?: number;
  /** When its gate let it through. */
  gateOpenMs?: number;
  /** When it was verified or failed. */
  endMs?: number;
  outcome: 'verified' | 'failed' | 'not reached';
}

export interface WorkloadForecast {
  /** `cluster/namespace/Kind/name`, as the plan's blast radius names it. */
  workload: string;
  desired: number;
  availableBefore: number;
  minAvailable: number;
  /** When availability first fell to its minimum. */
  minAtMs: number;
  readiness: ReadinessEstimate;
}

export interface GateDecision {
  cluster: string;
  batch: number;
  atMs: number;
  decision: 'held' | 'opened';
  /** The workload that held it. */
  subject?: string;
  message: string;
}

export interface EvictionRefusal {
  cluster: string;
  batch: number;
  /** `namespace/Pod/name`. */
  target: string;
  atMs: number;
  message: string;
}

export interface BatchPause {
  cluster: string;
  batch: number;
  atMs: number;
  /** The runbook's onFailure: `pause` waits for the operator, `abort` stops the cluster. */
  policy: OnFailure;
  reason: string;
  message: string;
}

export interface LowerBound {
  overallMs: number;
  clusters: { cluster: string; ms: number }[];
}

/**
 * The least time a run can take: within a cluster its batches one after another, each at least
 * as long as its slowest workload's readiness; clusters side by side, `clusterConcurrency` at a
 * time, each starting as soon as a slot is free (as the run machine starts them, in order).
 */
export function lowerBound(
  batches: readonly { cluster: string; workloads: readonly string[] }[],
  readinessMs: (workload: string) => number,
  clusterConcurrency: number,
): LowerBound {
  const order = [...new Set(batches.map((b) => b.cluster))];
  const clusters = order.map((cluster) => ({
    cluster,
    ms: batches
      .filter((b) => b.cluster === cluster)
      .reduce((sum, b) => sum + Math.max(0, ...b.workloads.map(readinessMs)), 0),
  }));
  const slots = Array.from({ length: Math.max(1, clusterConcurrency) }, () => 0);
  for (const c of clusters) {
    const i = slots.indexOf(Math.min(...slots));
    slots[i] = slots[i]! + c.ms;
  }
  return { overallMs: Math.max(0, ...slots), clusters };
}

/** What no rehearsal can know, whatever it copied. */
export const REHEARSAL_LIMITS: readonly string[] = [
  'image pulls: a replacement scheduled on a node without its image waits for the pull; the rehearsal starts containers at once',
  'real crash loops and failing probes: replacements behave as the live pods did, Ready after their measured time',
  'node pressure and capacity: the copied nodes never run short of CPU, memory or disk, and never go NotReady',
  'other actors: autoscalers, other deployments, operators and people changing the clusters during the run',
  'the live state moves on: a target that changed between the rehearsal and the run is checked again when its batch runs',
];
