/**
 * Rehearsing a recovery, as both faces do: the plan frozen once against the real clusters (the
 * pods' uids), rehearsed on an embedded copy of them (rehearse.ts), and, if the
 * operator goes on, that same frozen plan run for real with the rehearsal's times in its record,
 * so its audit log sets each batch beside its forecast.
 */
import type { ClusterSet } from '../../cluster/cluster-set.js';
import { UserError } from '../../diagnostics/user-error.js';
import { parseDuration } from '../../model/duration.js';
import type { RecoveryPlan } from '../../recovery/plan.js';
import type { Rehearsal } from '../../recovery/rehearsal.js';
import { launchFrozenRun, type OpenOptions } from '../../workflows/recovery/launch.js';
import type { PredictedBatch, RunPlan } from '../../workflows/recovery/model.js';
import { rehearse } from './rehearse.js';
import { freezePlan } from '../../workflows/recovery/run-plan.js';
import type { LiveRun } from '../../workflows/recovery/runner.js';

export type { Rehearsal } from '../../recovery/rehearsal.js';

/** A workload's readiness when none of its pods tells it (`--readiness`). */
export const DEFAULT_READINESS_MS = 10_000;
/** How much faster than real time a rehearsal runs by default (`--time-scale`): four times. */
export const DEFAULT_TIME_SCALE = 0.25;

export interface RehearsalSettings {
  readinessMs?: number;
  timeScale?: number;
}

/** `--readiness` and `--time-scale` as typed, checked. */
export function rehearsalSettings(flags: { readiness?: string; timeScale?: string }): RehearsalSettings {
  const settings: RehearsalSettings = {};
  if (flags.readiness !== undefined) {
    const ms = parseDuration(flags.readiness);
    if (ms === undefined)
      throw new UserError(`--readiness ${flags.readiness} is not a duration; write e.g. 8s, 1500ms or 2m`, 2);
    settings.readinessMs = ms;
  }
  if (flags.timeScale !== undefined) {
    const x = Number(flags.timeScale);
    if (!(x > 0 && x <= 1))
      throw new UserError(
        `--time-scale ${flags.timeScale} is not a number in (0, 1]: 1 rehearses at real time, 0.25 four times as fast`,
        2,
      );
    settings.timeScale = x;
  }
  return settings;
}

/** The plan as a run carries it out, frozen now against the real clusters (reads only). */
export function freezeRecovery(plan: RecoveryPlan, clusterSet: ClusterSet): Promise<RunPlan> {
  return freezePlan(plan, (c) => clusterSet.client(c), new Date());
}

/**
 * Rehearses a frozen plan against an embedded copy of `clusterSet`'s clusters; the clusters
 * are only read. The console and `kdeck recover --rehearse` call this.
 */
export function rehearseRecovery(
  plan: RunPlan,
  clusterSet: ClusterSet,
  settings: RehearsalSettings = {},
): Promise<Rehearsal> {
  return rehearse(plan, clusterSet, {
    fallbackReadinessMs: settings.readinessMs ?? DEFAULT_READINESS_MS,
    timeScale: settings.timeScale ?? DEFAULT_TIME_SCALE,
  });
}

/** When the rehearsal saw each batch verified. */
export function predictedBatches(r: Rehearsal): PredictedBatch[] {
  return r.batches.flatMap((b) =>
    b.outcome === 'verified' && b.endMs !== undefined ? [{ cluster: b.cluster, index: b.index, atMs: b.endMs }] : [],
  );
}

/** The rehearsed plan, run for real (awaiting approval), its record holding the forecast. */
export function launchRehearsedRun(
  root: string,
  runbook: string,
  options: [string, string][],
  plan: RunPlan,
  rehearsal: Rehearsal,
  clusterSet: ClusterSet,
  open: OpenOptions = {},
): LiveRun {
  return launchFrozenRun(root, runbook, options, plan, clusterSet, open, { predicted: predictedBatches(rehearsal) });
}
