/**
 * What a recovery run is made of: the plan frozen at approval (each pod target with the uid it
 * had then, so a step run twice recognises its own work), what happens to each batch, and the
 * I/O the machines are given. Pure types and small helpers.
 */
import type { Health } from '../../health/rules.js';
import type { OnFailure, RecoveryAction, RecoveryPlan, RecoveryTarget } from '../../recovery/plan.js';

/** The workloads that replace the pods they own, which a batch waits on (a Job's pods are not
 * restarted for it): a run's gate and verification read them. */
export const REPLACING_OWNERS: ReadonlySet<string> = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet']);

export interface RunTarget extends RecoveryTarget {
  /** The pod's uid when the run was planned: a pod with another uid is its replacement. */
  uid?: string;
}

export interface RunBatch {
  cluster: string;
  /** 1-based within its cluster. */
  index: number;
  targets: RunTarget[];
}

/** A runbook's plan as a run carries it out. */
export interface RunPlan {
  runbook: string;
  action: RecoveryAction;
  maxUnavailable: number;
  clusterConcurrency: number;
  healthTimeoutMs: number;
  onFailure: OnFailure;
  /** The value a rollout restart writes into the pod template: one per run, so a retry is a no-op. */
  restartedAt: string;
  batches: RunBatch[];
  unresolved: string[];
  blastRadius: RecoveryPlan['blastRadius'];
}

export type BatchOutcome = 'pending' | 'done' | 'failed' | 'skipped';

/** When a rehearsal saw a batch verified, in ms of real time after the run's approval. */
export interface PredictedBatch {
  cluster: string;
  /** 1-based within its cluster, as RunBatch.index. */
  index: number;
  atMs: number;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** A batch's time set beside the rehearsal's, as the audit log and the run's summary say it. */
export function comparedToRehearsal(actualMs: number, predicted: PredictedBatch): string {
  return `verified ${seconds(actualMs)} after approval; the rehearsal predicted ${seconds(predicted.atMs)}`;
}

/** Why a step failed: a short reason (CrashLoopBackOff, GateTimeout) and a sentence. */
export interface StepFailure {
  reason: string;
  message: string;
}

export class StepError extends Error {
  constructor(
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }
}

/** What one target's action came to. */
export type TargetOutcome = 'deleted' | 'evicted' | 'restarted' | 'already-replaced' | 'already-restarted';

/** A health reading during a batch: of a workload, or of the gate before it. */
export interface HealthNote {
  subject: string;
  health: Health;
}

export interface AuditEntry {
  time: string;
  /** user@host of whoever ran kdeck. */
  who: string;
  run: string;
  cluster?: string;
  /** `namespace/Kind/name`, or the batch (`batch 2`) for batch-level entries. */
  target?: string;
  action: string;
  outcome: string;
  detail?: string;
}

/** What the machines ask the world to do; the runner binds it to clusters, the tests to a script. */
export interface RecoverySteps {
  now(): number;
  /** Resolves once taking the batch down keeps every workload within maxUnavailable; StepError at the deadline. */
  gate(input: StepInput, report: (n: HealthNote) => void, signal: AbortSignal): Promise<void>;
  /** Restarts the batch's targets; a target already replaced or restarted is left alone. */
  act(input: StepInput, signal: AbortSignal): Promise<TargetOutcome[]>;
  /** Resolves once the replacements are Ready and their owners Healthy; StepError on trouble or at the deadline. */
  verify(input: StepInput, report: (n: HealthNote) => void, signal: AbortSignal): Promise<void>;
  audit(entry: Omit<AuditEntry, 'time' | 'who' | 'run'>): void;
  /** Lets go of what the steps hold open (watches). */
  close?(): void;
}

export interface StepInput {
  cluster: string;
  action: RecoveryAction;
  batch: RunBatch;
  maxUnavailable: number;
  restartedAt: string;
  /** Epoch ms: the step gives up then. Kept in the machine's context, so a resumed run keeps it. */
  deadline: number;
}

export function targetName(t: RecoveryTarget): string {
  return `${t.namespace}/${t.kind}/${t.name}`;
}
