/**
 * What `npm start` shows a newcomer: a fresh embedded sandbox for the workspace in which some
 * stacks were applied through the real engine (one with an older image, so it now has an
 * update to make) and one live object was then changed by hand (drift), beside stacks never
 * applied (creates). The console then opens on it with `--sandbox`.
 *
 * Usage: node dist/scripts/demo-seed.js WORKSPACE
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createActor, waitFor } from 'xstate';
import { stopWorkspaceSandbox } from '../src/app/workspace-sandbox.js';
import { openClusters, SANDBOX_DIR, DefaultedClusters } from '../src/app/workspace.js';
import { compileStack, type CompileOptions } from '../src/konfig/compile.js';
import { findWorkspaceRoot } from '../src/konfig/workspace.js';
import { LocalStateBackend, STATE_DIR } from '../src/state/local.js';
import { errorMessage } from '../src/diagnostics/user-error.js';
import { lockStack, releaseAll, stackOperationMachine } from '../src/workflows/stack-operation.js';
import type { ClusterSet } from '../src/cluster/cluster-set.js';

interface Seeded {
  stack: string;
  options?: CompileOptions;
  /** What the newcomer will see for it. */
  shows: string;
}

const SEEDED: Seeded[] = [
  { stack: 'appops/guestbook/dev', shows: 'drift (its frontend is scaled by hand below)' },
  { stack: 'appops/nginx-example/dev', shows: 'unchanged' },
  { stack: 'appops/http-echo/dev', shows: 'unchanged' },
  {
    stack: 'appops/nginx-example/staging',
    options: { overrides: ['appConfiguration.image="docker.io/nginxinc/nginx-unprivileged:1.25.4-alpine"'] },
    shows: 'an update (applied with an older image)',
  },
];

/** The frontend of guestbook/dev, scaled outside kdeck. */
const DRIFT = {
  context: 'sandbox-a',
  ref: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'guestbook-dev', name: 'frontend' },
  replicas: 2,
};

async function apply(root: string, clusterSet: ClusterSet, seeded: Seeded): Promise<void> {
  const { stack, spec } = compileStack(path.join(root, seeded.stack), seeded.options);
  const clusters = new DefaultedClusters(clusterSet, undefined);
  const backend = new LocalStateBackend(root);
  const machine = stackOperationMachine({
    stack,
    spec,
    clusters,
    clusterSet,
    backend,
    operation: 'apply',
    concurrency: 8,
    timeoutMs: 60_000,
    followHealth: false,
  });
  const locks = await lockStack(backend, clusters, stack, spec, 'apply');
  try {
    const actor = createActor(machine, { input: { autoApprove: true } }).start();
    const end = await waitFor(actor, (s) => s.status === 'done', { timeout: 120_000 });
    if (end.value !== 'done')
      throw new Error(`applying ${seeded.stack} ended ${String(end.value)}: ${end.context.error ?? ''}`);
  } finally {
    await releaseAll(locks);
  }
}

async function scaleByHand(clusterSet: ClusterSet): Promise<void> {
  const client = clusterSet.client(DRIFT.context);
  await client.rest.request({
    method: 'PATCH',
    path: await client.pathOf(DRIFT.ref),
    query: { fieldManager: 'kubectl-scale' },
    body: { spec: { replicas: DRIFT.replicas } },
    contentType: 'application/merge-patch+json',
  });
}

async function seedDemo(workspace: string, out: (line: string) => void): Promise<void> {
  const root = findWorkspaceRoot(workspace);
  // a fresh sandbox and a fresh state: what was applied before is forgotten with the clusters
  // (a sandbox still serving the folder would write its old objects back: it is stopped first)
  await stopWorkspaceSandbox(root);
  for (const dir of [SANDBOX_DIR, STATE_DIR]) fs.rmSync(path.join(root, dir), { recursive: true, force: true });
  const { clusterSet, close } = await openClusters({ sandbox: true, context: [] }, root);
  try {
    for (const s of SEEDED) {
      await apply(root, clusterSet, s);
      out(`applied ${s.stack}: the console shows ${s.shows}`);
    }
    await scaleByHand(clusterSet);
    out(`scaled ${DRIFT.ref.namespace}/${DRIFT.ref.name} to ${DRIFT.replicas} replicas by hand on ${DRIFT.context}`);
  } finally {
    await close();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const workspace = process.argv[2];
  if (!workspace) {
    process.stderr.write('usage: node dist/scripts/demo-seed.js WORKSPACE\n');
    process.exitCode = 2;
  } else {
    const started = Date.now();
    seedDemo(workspace, (line) => process.stdout.write(`kdeck demo: ${line}\n`)).then(
      () =>
        process.stdout.write(
          `kdeck demo: sandbox ready in ${((Date.now() - started) / 1000).toFixed(1)} s; opening the console\n`,
        ),
      (e: unknown) => {
        process.stderr.write(
          `kdeck demo: could not prepare the sandbox in ${path.join(workspace, SANDBOX_DIR)}: ${errorMessage(e)}; run npm run build, then npm start again\n`,
        );
        process.exitCode = 1;
      },
    );
  }
}
