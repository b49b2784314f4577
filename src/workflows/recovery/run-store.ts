/**
 * A recovery run on disk, under `<workspace>/.kdeck/runs/<run id>/`: `run.json` (the frozen
 * plan and who started it), `snapshot.json` (the machine's persisted snapshot, rewritten whole
 * after every transition), `audit.jsonl` (append-only: who, when, cluster, target, action,
 * outcome) and `lock` while a process is running it, so two resumes never race.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isAlive, writeDurably, writeDurablyAsync } from '../../state/durable-file.js';
import { UserError } from '../../diagnostics/user-error.js';
import type { AuditEntry, PredictedBatch, RunPlan } from './model.js';

export const RUNS_DIR = path.join('.kdeck', 'runs');
const VERSION = 1;

export interface RunRecord {
  version: number;
  id: string;
  /** The runbook file, relative to the workspace. */
  runbook: string;
  options: [string, string][];
  createdAt: string;
  who: string;
  plan: RunPlan;
  /** What a rehearsal of this same plan predicted, when one came first. */
  predicted?: PredictedBatch[];
}

interface SnapshotFile {
  version: number;
  snapshot: unknown;
}

export function newRunId(runbook: string, at: Date): string {
  const stamp = at.toISOString().replace(/[-:]/g, '').replace(/\..*/, '').replace('T', '-');
  return `${stamp}-${runbook.replace(/[^a-zA-Z0-9-]/g, '-')}-${randomBytes(2).toString('hex')}`;
}

export class RunStore {
  readonly dir: string;

  constructor(
    workspaceRoot: string,
    readonly id: string,
  ) {
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(id))
      throw new UserError(`${id} is not a run id; \`ls ${RUNS_DIR}\` lists the runs of this workspace`, 2);
    this.dir = path.join(workspaceRoot, RUNS_DIR, id);
  }

  private file(name: string): string {
    return path.join(this.dir, name);
  }

  create(fields: Omit<RunRecord, 'version' | 'id'>): RunRecord {
    const record: RunRecord = { version: VERSION, id: this.id, ...fields };
    fs.mkdirSync(path.dirname(this.dir), { recursive: true });
    fs.mkdirSync(this.dir);
    writeDurably(this.file('run.json'), `${JSON.stringify(record, null, 2)}\n`);
    return record;
  }

  record(): RunRecord {
    const file = this.file('run.json');
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      throw new UserError(
        `there is no run ${this.id} in ${path.dirname(this.dir)}; \`ls ${RUNS_DIR}\` lists the runs of this workspace`,
        2,
      );
    }
    const r = JSON.parse(text) as RunRecord;
    if (r.version !== VERSION || !r.plan)
      throw new UserError(`${file} is not a run record this kdeck can read (version ${String(r.version)})`, 2);
    return r;
  }

  /** Writes the snapshot; one write at a time, or a slow older one could land over a newer. */
  saveSnapshot(snapshot: unknown): Promise<void> {
    const doc: SnapshotFile = { version: VERSION, snapshot };
    return writeDurablyAsync(this.file('snapshot.json'), JSON.stringify(doc));
  }

  /** The last persisted snapshot, or undefined when the run never started. */
  snapshot(): unknown {
    try {
      const doc = JSON.parse(fs.readFileSync(this.file('snapshot.json'), 'utf8')) as SnapshotFile;
      if (doc.version !== VERSION)
        throw new UserError(
          `the snapshot of run ${this.id} has version ${doc.version}; this kdeck reads version ${VERSION}`,
          2,
        );
      return doc.snapshot;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      if (e instanceof UserError) throw e;
      throw new UserError(
        `the snapshot of run ${this.id} (${this.file('snapshot.json')}) is damaged; the audit log beside it says what was done`,
        2,
      );
    }
  }

  audit(entry: AuditEntry): void {
    fs.appendFileSync(this.file('audit.jsonl'), `${JSON.stringify(entry)}\n`);
  }

  auditLog(): AuditEntry[] {
    const file = this.file('audit.jsonl');
    if (!fs.existsSync(file)) return [];
    return fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as AuditEntry);
  }

  /** Takes the run for this process; another live process holding it is refused. */
  lock(): () => void {
    const file = this.file('lock');
    const mine = `${process.pid}@${os.hostname()}`;
    for (let attempt = 0; ; attempt++) {
      try {
        fs.writeFileSync(file, mine, { flag: 'wx' });
        break;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
        const [pid, host] = fs.readFileSync(file, 'utf8').split('@');
        if (attempt === 0 && host === os.hostname() && !isAlive(Number(pid))) {
          fs.rmSync(file, { force: true });
          continue;
        }
        throw new UserError(
          `run ${this.id} is being run by process ${pid} on ${host}; wait for it, or stop that process first`,
          1,
        );
      }
    }
    return () => fs.rmSync(file, { force: true });
  }
}

/** A saved run its audit log does not end: `--resume` (or the console's `:resume`) carries it on. */
export interface UnfinishedRun {
  id: string;
  runbook: string;
  /** The last run-level entry of its audit log, as a phrase: `paused`, `finished (a: stopped)`. */
  last: string;
}

/** The last run-level entry of a run's audit log, or undefined before its approval. */
const lastRunEntry = (log: AuditEntry[]) => log.findLast((e) => e.action === 'run');

/** Where a run's audit log leaves it, as a phrase: `paused`, `finished (a: stopped)`. */
export function runStanding(log: AuditEntry[]): string {
  const last = lastRunEntry(log);
  return last ? `${last.outcome}${last.detail ? ` (${last.detail})` : ''}` : 'not approved yet';
}

const ends = (e: AuditEntry | undefined) =>
  e !== undefined && (e.outcome === 'cancelled' || (e.outcome === 'finished' && !/: stopped\b/.test(e.detail ?? '')));

/** The workspace's unfinished runs, newest first (run ids begin with their start time). */
export function unfinishedRuns(workspaceRoot: string): UnfinishedRun[] {
  let ids: string[];
  try {
    ids = fs.readdirSync(path.join(workspaceRoot, RUNS_DIR)).sort().reverse();
  } catch {
    return [];
  }
  const runs: UnfinishedRun[] = [];
  for (const id of ids) {
    try {
      const store = new RunStore(workspaceRoot, id);
      const record = store.record();
      const log = store.auditLog();
      if (ends(lastRunEntry(log))) continue;
      runs.push({ id, runbook: record.runbook, last: runStanding(log) });
    } catch {
      // a stray or damaged entry is not a run to offer; `kdeck recover --resume ID` explains it
    }
  }
  return runs;
}
