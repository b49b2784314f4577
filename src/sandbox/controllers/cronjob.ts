/**
 * The CronJob controller: starts a Job (`<cronjob>-<minutes since the epoch>`) each time the
 * schedule fires, within `startingDeadlineSeconds`, honouring `suspend` and the concurrency
 * policy (Allow, Forbid, Replace); lists the running Jobs in `status.active`; keeps only the
 * newest finished Jobs the history limits allow; and wakes at the next firing.
 */
import type { JsonMap } from '../json.js';
import { parseTime, rfc3339 } from '../time.js';
import { condition, type Job } from './kinds.js';
import type { KubeObject } from '../api/object.js';
import type { Controller } from './manager.js';
import { lastFiring, nextFiring, parseSchedule, type Schedule } from '../cron.js';
import {
  allKeys,
  byObject,
  byOwner,
  controlledBy,
  create,
  get,
  ownerRef,
  remove,
  typeOf,
  wake,
  writeStatus,
  type ControllerContext,
} from './runtime.js';

const SCHEDULED_AT = 'batch.kubernetes.io/cronjob-scheduled-timestamp';

interface CronJob extends KubeObject {
  spec: {
    schedule: string;
    suspend?: boolean;
    concurrencyPolicy?: 'Allow' | 'Forbid' | 'Replace';
    startingDeadlineSeconds?: number;
    successfulJobsHistoryLimit?: number;
    failedJobsHistoryLimit?: number;
    jobTemplate: {
      metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
      spec: JsonMap;
    };
  };
  status?: { lastScheduleTime?: string; lastSuccessfulTime?: string; active?: unknown[] };
}

const finished = (j: Job) => ['Complete', 'Failed'].find((t) => condition(j.status?.conditions, t)?.status === 'True');

export function cronJobController(ctx: ControllerContext): Controller {
  const cronjobs = typeOf(ctx, 'batch', 'cronjobs');
  const jobs = typeOf(ctx, 'batch', 'jobs');
  const parsed = new Map<string, Schedule | Error>();
  const scheduleOf = (text: string): Schedule | Error => {
    let s = parsed.get(text);
    if (!s) {
      try {
        s = parseSchedule(text);
      } catch (e) {
        s = e instanceof Error ? e : new Error(String(e));
      }
      parsed.set(text, s);
    }
    return s;
  };

  const c: Controller = {
    name: 'cronjob',
    follows: { 'batch/cronjobs': byObject(), 'batch/jobs': byOwner('CronJob') },
    initialKeys: () => allKeys(ctx, cronjobs),
    reconcile(key) {
      const cj = get<CronJob>(ctx, cronjobs, key);
      if (!cj || cj.metadata.deletionTimestamp) return;
      const schedule = scheduleOf(cj.spec.schedule);
      if (schedule instanceof Error) return;
      const now = ctx.api.clock.now();
      const owned = controlledBy<Job>(ctx, cj, 'batch/jobs');
      let active = owned.filter((j) => !finished(j) && !j.metadata.deletionTimestamp);
      const status: NonNullable<CronJob['status']> = { ...cj.status };

      const since = parseTime(cj.status?.lastScheduleTime) ?? parseTime(cj.metadata.creationTimestamp) ?? now;
      const due = cj.spec.suspend ? undefined : lastFiring(schedule, since, now);
      const late =
        due !== undefined &&
        cj.spec.startingDeadlineSeconds !== undefined &&
        now - due > cj.spec.startingDeadlineSeconds * 1000;
      if (due !== undefined && !late) {
        const policy = cj.spec.concurrencyPolicy ?? 'Allow';
        if (policy === 'Replace') for (const j of active) remove(ctx, jobs, j, { propagationPolicy: 'Background' });
        if (policy !== 'Forbid' || active.length === 0) {
          const made = create<Job>(ctx, jobs, {
            apiVersion: 'batch/v1',
            kind: 'Job',
            metadata: {
              name: `${cj.metadata.name ?? ''}-${Math.floor(due / 60_000)}`,
              namespace: cj.metadata.namespace ?? '',
              labels: { ...cj.spec.jobTemplate.metadata?.labels },
              annotations: { ...cj.spec.jobTemplate.metadata?.annotations, [SCHEDULED_AT]: rfc3339(due) },
              ownerReferences: [ownerRef(cj)],
            },
            spec: structuredClone(cj.spec.jobTemplate.spec),
          });
          if (made) {
            ctx.events.record(
              cj,
              'Normal',
              'SuccessfulCreate',
              `Created job ${made.metadata.name ?? ''}`,
              'cronjob-controller',
            );
            active = [...(policy === 'Replace' ? [] : active), made];
          }
        }
        status.lastScheduleTime = rfc3339(due);
      } else if (due !== undefined) {
        status.lastScheduleTime = rfc3339(due);
      }
      const succeeded = owned.filter((j) => finished(j) === 'Complete');
      const lastSuccess = Math.max(...succeeded.map((j) => parseTime(j.status?.completionTime) ?? 0));
      if (lastSuccess > 0) status.lastSuccessfulTime = rfc3339(lastSuccess);
      if (active.length > 0)
        status.active = active.map((j) => ({
          kind: 'Job',
          apiVersion: 'batch/v1',
          name: j.metadata.name,
          namespace: j.metadata.namespace,
          uid: j.metadata.uid,
        }));
      else delete status.active;
      writeStatus(ctx, cronjobs, cj, status);
      prune(owned, 'Complete', cj.spec.successfulJobsHistoryLimit ?? 3);
      prune(owned, 'Failed', cj.spec.failedJobsHistoryLimit ?? 1);
      const next = nextFiring(schedule, now);
      if (next !== undefined && !cj.spec.suspend) wake(ctx, c, key, next - now);
    },
  };

  /** Deletes the oldest finished Jobs beyond a history limit. */
  function prune(owned: Job[], outcome: 'Complete' | 'Failed', limit: number): void {
    const done = owned
      .filter((j) => finished(j) === outcome)
      .sort((a, b) => (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? ''));
    for (const j of done.slice(0, Math.max(0, done.length - limit)))
      remove(ctx, jobs, j, { propagationPolicy: 'Background' });
  }

  return c;
}
