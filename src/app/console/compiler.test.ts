import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { WorkerCompiler } from './compiler.js';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
/** The shipped worker, in the bundle: the tests run after `npm run build`, as the end-to-end tests do. */
const BUILT = pathToFileURL(path.join(ROOT, 'dist', 'bin', 'compile-worker.js'));

let compiler: WorkerCompiler | undefined;
afterEach(async () => {
  await compiler?.close();
});

describe('WorkerCompiler', () => {
  it('compiles a stack in a worker thread and says which files it read', async () => {
    compiler = new WorkerCompiler(BUILT);
    const outcome = await compiler.compile(path.join(ROOT, 'konfig-sample', 'appops', 'nginx-example', 'dev'));
    expect(outcome.ok && outcome.spec.resources.map((r) => r.id)).toContain(
      'apps/v1:Deployment:nginx-example-dev:nginx-example',
    );
    expect(outcome.inputs.files).toContain(
      path.join(ROOT, 'konfig-sample', 'appops', 'nginx-example', 'base', 'base.k'),
    );
  });

  it('stops a compile that runs away and carries on with a fresh worker', async () => {
    // a stand-in worker that loops forever on one folder and answers for the others
    const script = path.join(fs.mkdtempSync(path.join(tmpdir(), 'kdeck-worker-')), 'worker.mjs');
    fs.writeFileSync(
      script,
      `import { parentPort } from 'node:worker_threads';
parentPort.on('message', (r) => {
  if (r.dir === 'loop') for (;;) {}
  parentPort.postMessage({ id: r.id, ok: true, spec: { resources: [] }, ms: 1, inputs: { files: [], folders: [] } });
});`,
    );
    compiler = new WorkerCompiler(pathToFileURL(script), 300);
    const [stuck, next] = await Promise.all([compiler.compile('loop'), compiler.compile('fine')]);
    expect(stuck.ok).toBe(false);
    expect(!stuck.ok && stuck.failure.summary).toBe(
      'compiling took longer than 300 ms and was stopped (an endless loop or a runaway recursion?); fix the file and save again',
    );
    expect(next.ok).toBe(true);
  });
});
