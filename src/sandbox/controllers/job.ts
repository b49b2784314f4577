/**
 * The Job controller: runs up to `parallelism` pods until `completions` succeed (Complete),
 * or more than `backoffLimit` fail (Failed, BackoffLimitExceeded), or `activeDeadlineSeconds`
 * passes (Failed, DeadlineExceeded); failed pods are replaced after the controller's back-off;
 * a suspended Job has no pods; `ttlSecondsAfterFinished` deletes a finished Job.
 */
import { parseTime, rfc3339 } from '../time.js';
import { condition, isPodReady, type Condition, type Job, type Pod } from './kinds.js';
import type { Controller } from './manager.js';
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
  wake,
  writeStatus,
  type ControllerContext,
} from './runtime.js';
import { podFromTemplate } from './workload-util.js';

const COMPONENT = 'job-controller';

/** The Job controller's back-off before replacing failed pods: 10 s, doubling, at most 6 min. */
function jobBackoffMs(failures: number): number {
  return failures <= 0 ? 0 : Math.min(10_000 * 2 ** (failures - 1), 360_000);
}

function cond(type: string, reason: string, message: string, now: string): Condition {
  return { type, status: 'True', reason, message, lastProbeTime: now, lastTransitionTime: now };
}

export function jobController(ctx: ControllerContext): Controller {
  const jobs = typeOf(ctx, 'batch', 'jobs');
  const pods = typeOf(ctx, '', 'pods');
  const c: Controller = {
    name: 'job',
    follows: { 'batch/jobs': byObject(), '/pods': byOwner('Job') },
    initialKeys: () => allKeys(ctx, jobs),
    reconcile(key) {
      const job = get<Job>(ctx, jobs, key);
      if (!job || job.metadata.deletionTimestamp) return;
      const now = ctx.api.clock.now();
      const t = rfc3339(now);
      const status = { ...job.status };
      const conds = [...(status.conditions ?? [])];
      const finished = conds.some((x) => (x.type === 'Complete' || x.type === 'Failed') && x.status === 'True');
      if (finished) return expireFinished(job, now);

      const owned = ownedPods(ctx, job);
      const active = owned.filter(
        (p) => p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed' && !p.metadata.deletionTimestamp,
      );
      const succeeded = Math.max(status.succeeded ?? 0, owned.filter((p) => p.status?.phase === 'Succeeded').length);
      const failed = Math.max(status.failed ?? 0, owned.filter((p) => p.status?.phase === 'Failed').length);
      const completions = job.spec.completions;
      const suspended = job.spec.suspend === true;
      if (!suspended && status.startTime === undefined) status.startTime = t;
      const started = parseTime(status.startTime);

      let verdict: { type: 'Complete' | 'Failed'; reason: string; message: string } | undefined;
      if (completions !== undefined && succeeded >= completions)
        verdict = {
          type: 'Complete',
          reason: 'CompletionsReached',
          message: 'Reached expected number of succeeded pods',
        };
      else if (completions === undefined && succeeded > 0 && active.length === 0)
        verdict = {
          type: 'Complete',
          reason: 'CompletionsReached',
          message: 'Reached expected number of succeeded pods',
        };
      else if (failed > job.spec.backoffLimit)
        verdict = {
          type: 'Failed',
          reason: 'BackoffLimitExceeded',
          message: 'Job has reached the specified backoff limit',
        };
      else if (
        job.spec.activeDeadlineSeconds !== undefined &&
        started !== undefined &&
        now - started >= job.spec.activeDeadlineSeconds * 1000
      ) {
        verdict = {
          type: 'Failed',
          reason: 'DeadlineExceeded',
          message: 'Job was active longer than specified deadline',
        };
      }

      if (verdict || suspended) for (const p of active) remove(ctx, pods, p);
      if (verdict) {
        // the interim condition first, then the final one, as the real controller reports them
        const interim = verdict.type === 'Complete' ? 'SuccessCriteriaMet' : 'FailureTarget';
        if (!condition(conds, interim)) conds.push(cond(interim, verdict.reason, verdict.message, t));
        conds.push(cond(verdict.type, verdict.reason, verdict.message, t));
        if (verdict.type === 'Complete') status.completionTime = t;
        ctx.events.record(
          job,
          verdict.type === 'Complete' ? 'Normal' : 'Warning',
          verdict.type === 'Complete' ? 'Completed' : verdict.reason,
          verdict.type === 'Complete' ? 'Job completed' : verdict.message,
          COMPONENT,
        );
      } else if (!suspended) {
        const remaining = completions === undefined ? job.spec.parallelism : completions - succeeded;
        const want = Math.max(0, Math.min(job.spec.parallelism, remaining) - active.length);
        const lastFailure = Math.max(
          0,
          ...owned
            .filter((p) => p.status?.phase === 'Failed')
            .map((p) => parseTime(p.status?.containerStatuses?.[0]?.state.terminated?.finishedAt) ?? 0),
        );
        const readyAt = lastFailure + jobBackoffMs(failed);
        if (want > 0 && readyAt > now) wake(ctx, c, key, readyAt - now);
        else {
          for (let i = 0; i < want; i++) {
            const made = create<Pod>(ctx, pods, podFromTemplate(job, job.spec.template, { ref: ownerRef(job) }));
            if (!made) break;
            ctx.events.record(job, 'Normal', 'SuccessfulCreate', `Created pod: ${made.metadata.name ?? ''}`, COMPONENT);
          }
        }
        if (job.spec.activeDeadlineSeconds !== undefined && started !== undefined)
          wake(ctx, c, key, started + job.spec.activeDeadlineSeconds * 1000 - now);
      }
      if (suspended && !condition(conds, 'Suspended'))
        conds.push(cond('Suspended', 'JobSuspended', 'Job suspended', t));
      const live = ownedPods(ctx, job);
      const stillActive = live.filter(
        (p) => p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed' && !p.metadata.deletionTimestamp,
      );
      const next: Job['status'] = {
        ...status,
        active: stillActive.length,
        ready: stillActive.filter(isPodReady).length,
        succeeded,
        failed,
        terminating: live.filter((p) => p.metadata.deletionTimestamp !== undefined).length,
        uncountedTerminatedPods: {},
        conditions: conds,
      };
      if (next.conditions?.length === 0) delete next.conditions;
      for (const k of ['active', 'succeeded', 'failed'] as const) if (next[k] === 0) delete next[k];
      writeStatus(ctx, jobs, job, next);
    },
  };

  /** A finished Job with ttlSecondsAfterFinished goes once the time is up. */
  function expireFinished(job: Job, now: number): void {
    const ttl = job.spec.ttlSecondsAfterFinished;
    if (ttl === undefined) return;
    const doneAt =
      parseTime(
        job.status?.conditions?.find((x) => x.type === 'Complete' || x.type === 'Failed')?.lastTransitionTime,
      ) ?? now;
    const at = doneAt + ttl * 1000;
    if (at <= now) remove(ctx, jobs, job, { propagationPolicy: 'Background' });
    else wake(ctx, c, `${job.metadata.namespace ?? ''}/${job.metadata.name ?? ''}`, at - now);
  }

  return c;
}
