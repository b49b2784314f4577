import { describe, expect, it } from 'vitest';
import { ResourceGraph } from '../graph/graph.js';
import { walkGraph, type Outcome } from './walk.js';

// ns → (cm, svc) → app → hpa ; ns → job (independent branch)
const graph = new ResourceGraph(
  ['ns', 'cm', 'svc', 'app', 'hpa', 'job'],
  [
    ['ns', 'cm'],
    ['ns', 'svc'],
    ['cm', 'app'],
    ['svc', 'app'],
    ['app', 'hpa'],
    ['ns', 'job'],
  ].map(([from, to]) => ({ from, to, kind: 'explicit' as const })),
);

/** A run function whose calls finish only when the test says so, recording the order of events. */
function scripted() {
  const log: string[] = [];
  const pending = new Map<string, (o: Outcome) => void>();
  let maxRunning = 0;
  const run = (id: string) =>
    new Promise<Outcome>((resolve) => {
      pending.set(id, resolve);
      maxRunning = Math.max(maxRunning, pending.size);
    });
  const complete = async (id: string, outcome: Outcome = 'succeeded') => {
    const resolve = pending.get(id);
    if (!resolve) throw new Error(`${id} is not running (running: ${[...pending.keys()].join(', ')})`);
    pending.delete(id);
    resolve(outcome);
    await new Promise((r) => setImmediate(r));
  };
  const listener = {
    started: (id: string) => log.push(`start ${id}`),
    finished: (id: string, o: Outcome) => log.push(`${o} ${id}`),
    skipped: (id: string, because: string) => log.push(`skip ${id} (${because})`),
  };
  return { log, pending, run, complete, listener, maxRunning: () => maxRunning };
}

describe('DAG walk', () => {
  it('starts each resource once its dependencies succeeded, in level-then-id order', async () => {
    const s = scripted();
    const done = walkGraph(graph, new Set(graph.ids), s.run, { concurrency: 8 }, s.listener);
    await s.complete('ns');
    expect([...s.pending.keys()]).toEqual(['cm', 'job', 'svc']);
    await s.complete('svc');
    await s.complete('cm');
    await s.complete('job');
    await s.complete('app');
    await s.complete('hpa');
    expect(await done).toEqual({
      succeeded: ['ns', 'svc', 'cm', 'job', 'app', 'hpa'],
      failed: [],
      skipped: [],
      notStarted: [],
    });
  });

  it('never runs more than the concurrency at once', async () => {
    const s = scripted();
    const done = walkGraph(graph, new Set(graph.ids), s.run, { concurrency: 2 }, s.listener);
    await s.complete('ns');
    expect([...s.pending.keys()]).toEqual(['cm', 'job']);
    for (const id of ['cm', 'job', 'svc', 'app', 'hpa']) await s.complete(id);
    await done;
    expect(s.maxRunning()).toBe(2);
  });

  it('skips the dependents of a failure and finishes the independent branches', async () => {
    const s = scripted();
    const done = walkGraph(graph, new Set(graph.ids), s.run, { concurrency: 8 }, s.listener);
    await s.complete('ns');
    await s.complete('cm', 'failed');
    await s.complete('svc');
    await s.complete('job');
    expect(await done).toEqual({
      succeeded: ['ns', 'svc', 'job'],
      failed: ['cm'],
      skipped: ['app', 'hpa'],
      notStarted: [],
    });
    expect(s.log).toContain('skip app (cm)');
    expect(s.log).toContain('skip hpa (app)');
  });

  it('starts nothing new after a failure with failFast, or once aborted, but waits for what runs', async () => {
    const s = scripted();
    const done = walkGraph(graph, new Set(graph.ids), s.run, { concurrency: 8, failFast: true }, s.listener);
    await s.complete('ns');
    await s.complete('job', 'failed');
    await s.complete('cm');
    await s.complete('svc');
    expect(await done).toEqual({
      succeeded: ['ns', 'cm', 'svc'],
      failed: ['job'],
      skipped: [],
      notStarted: ['app', 'hpa'],
    });

    const aborted = scripted();
    const controller = new AbortController();
    const walk = walkGraph(
      graph,
      new Set(graph.ids),
      aborted.run,
      { concurrency: 8, signal: controller.signal },
      aborted.listener,
    );
    await aborted.complete('ns');
    controller.abort();
    for (const id of ['cm', 'job', 'svc']) await aborted.complete(id);
    expect((await walk).notStarted).toEqual(['app', 'hpa']);
  });

  it('treats resources outside the selection as done', async () => {
    const s = scripted();
    const done = walkGraph(graph, new Set(['app', 'hpa']), s.run, { concurrency: 8 }, s.listener);
    expect([...s.pending.keys()]).toEqual(['app']);
    await s.complete('app');
    await s.complete('hpa');
    expect((await done).succeeded).toEqual(['app', 'hpa']);
  });
});
