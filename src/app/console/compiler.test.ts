import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tempWorkspace, MINIMAL_STACK } from '../../konfig/testing.js';
import { WorkerCompiler } from './compiler.js';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
/** The shipped worker, in the bundle: the tests run after `npm run build`, as the end-to-end tests do. */
const BUILT = pathToFileURL(path.join(ROOT, 'dist', 'bin', 'compile-worker.mjs'));

let compiler: WorkerCompiler | undefined;
afterEach(async () => {
  await compiler?.close();
});

describe('WorkerCompiler', () => {
  it('compiles a stack in a worker thread and says which files it read', async () => {
    compiler = new WorkerCompiler({ script: BUILT });
    const outcome = await compiler.compile(path.join(ROOT, 'konfig-sample', 'appops', 'nginx-example', 'dev'));
    expect(outcome.ok && outcome.spec.resources.map((r) => r.id)).toContain(
      'apps/v1:Deployment:nginx-example-dev:nginx-example',
    );
    expect(outcome.inputs.files).toContain(
      path.join(ROOT, 'konfig-sample', 'appops', 'nginx-example', 'base', 'base.k'),
    );
  });

  it('under --read-only, compiles a program that writes a file into a refusal, and keeps no parse', async () => {
    const root = tempWorkspace({
      ...MINIMAL_STACK,
      'apps/shop/dev/main.k': `import file\n_w = file.write("out.txt", "x")\n${MINIMAL_STACK['apps/shop/dev/main.k']}`,
    });
    const dir = path.join(root, 'apps', 'shop', 'dev');
    try {
      compiler = new WorkerCompiler({ script: BUILT, readOnly: true });
      const refused = await compiler.compile(dir);
      expect(!refused.ok && refused.failure.summary).toContain('--read-only');
      expect(fs.existsSync(path.join(dir, 'out.txt'))).toBe(false);
      expect(fs.existsSync(path.join(root, '.kdeck', 'cache'))).toBe(false);
      await compiler.close();

      compiler = new WorkerCompiler({ script: BUILT });
      const written = await compiler.compile(dir);
      expect(written.ok).toBe(true);
      // written once the answer is out
      await vi.waitFor(() => expect(fs.readdirSync(path.join(root, '.kdeck', 'cache', 'ast'))).toEqual(['pack']), {
        timeout: 5_000,
      });
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
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
    compiler = new WorkerCompiler({ script: pathToFileURL(script), limitMs: 300 });
    const [stuck, next] = await Promise.all([compiler.compile('loop'), compiler.compile('fine')]);
    expect(stuck.ok).toBe(false);
    expect(!stuck.ok && stuck.failure.summary).toBe(
      'compiling took longer than 300 ms and was stopped (an endless loop or a runaway recursion?); fix the file and save again',
    );
    expect(next.ok).toBe(true);
  });
});
