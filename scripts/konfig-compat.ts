/**
 * Measures how many stacks of a Konfig checkout kdeck compiles to exactly their golden output:
 * every stack folder (one holding `stack.yaml`) is compiled in-process as `kusion compile` did,
 * with `ci-test/settings.yaml` (when present) then `kcl.yaml` as settings files, and its YAML
 * documents are compared in order, key order included, with `ci-test/stdout.golden.yaml`. The
 * stack's Spec from `kdeck compile` (resources sorted by id) is compared with the golden's
 * documents sorted the same way.
 *
 *   npm run konfig-compat -- <konfig checkout> [--filter s]
 *   npm run konfig-compat -- <konfig clone> --history [--commits N]   (see konfig-history.ts)
 *
 * Exit code 0 when every stack matches, 1 when some do not, 2 for a usage error. The checkout is
 * external and never copied into this repository.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { firstDifference, loadDocuments } from './document-diff.js';
import { runKcl } from '../src/kcl/run.js';
import { runOptionsFromSettings } from '../src/kcl/settings.js';
import { compileStack, settingsFiles } from '../src/konfig/compile.js';
import { crdResources } from '../src/konfig/crd.js';
import { specToYaml } from '../src/konfig/spec-yaml.js';
import { loadWorkspace, type Stack } from '../src/konfig/workspace.js';
import { failureLine } from './failure-line.js';
import { runHistory } from './konfig-history.js';

const GOLDEN = path.join('ci-test', 'stdout.golden.yaml');

interface Verdict {
  stack: string;
  passed: boolean;
  /** `kdeck compile` gives the golden's resources. */
  specPassed: boolean;
  /** Why it failed, in one line. */
  reason?: string;
  /** The output has the golden's documents and values, in another key order. */
  keyOrderOnly?: boolean;
}

/** loadDocuments gives mappings as Maps. */
const idOf = (doc: unknown) => (doc instanceof Map ? String(doc.get('id') ?? '') : '');

function judgeStack(root: string, s: Stack): Verdict {
  const { dir } = s;
  const stack = path.relative(root, dir) || '.';
  const failed = (reason: string): Verdict => ({ stack, passed: false, specPassed: false, reason });
  const golden = path.join(dir, GOLDEN);
  if (!existsSync(golden)) return failed(`no ${GOLDEN}`);
  let yaml: string;
  try {
    yaml = runKcl(runOptionsFromSettings(settingsFiles(s), dir)).yaml;
  } catch (e) {
    return failed(failureLine(e));
  }
  let expected: unknown[];
  let actual: unknown[];
  try {
    expected = loadDocuments(readFileSync(golden, 'utf8'));
  } catch (e) {
    return failed(`golden: ${(e as Error).message}`);
  }
  try {
    actual = loadDocuments(yaml);
  } catch (e) {
    return failed(`output: ${(e as Error).message}`);
  }
  let specPassed = false;
  try {
    const byId = [...expected].sort((a, b) => (idOf(a) < idOf(b) ? -1 : idOf(a) > idOf(b) ? 1 : 0));
    // the goldens hold the KCL program's output; the project's CRD files join the Spec later
    const crds = new Set(crdResources(dir).map((r) => r.id));
    const spec = compileStack(dir).spec;
    specPassed = !firstDifference(
      byId,
      loadDocuments(specToYaml({ resources: spec.resources.filter((r) => !crds.has(r.id)) })),
    );
  } catch {
    specPassed = false;
  }
  const d = firstDifference(expected, actual);
  if (!d) return { stack, passed: true, specPassed };
  return { stack, passed: false, specPassed, reason: `${d.path}: ${d.message}`, keyOrderOnly: d.keyOrderOnly };
}

function main(): number {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { filter: { type: 'string' }, history: { type: 'boolean' }, commits: { type: 'string' } },
  });
  const root = positionals[0];
  if (positionals.length !== 1 || !existsSync(root) || !statSync(root).isDirectory()) {
    console.error('usage: npm run konfig-compat -- <konfig checkout dir> [--filter s] [--history [--commits N]]');
    return 2;
  }
  // every commit of a clone's history that has goldens (konfig-history.ts)
  if (values.history) {
    return runHistory(root, { filter: values.filter, commits: values.commits ? Number(values.commits) : undefined });
  }
  const stacks = loadWorkspace(path.resolve(root))
    .projects.flatMap((p) => p.stacks)
    .filter((st) => values.filter === undefined || st.dir.includes(values.filter));
  let passed = 0;
  let specs = 0;
  let orderOnly = 0;
  for (const stack of stacks) {
    const v = judgeStack(path.resolve(root), stack);
    if (v.passed) passed++;
    if (v.specPassed) specs++;
    if (v.keyOrderOnly) orderOnly++;
    const spec = v.specPassed ? '' : ' [kdeck compile differs]';
    console.log(
      v.passed
        ? `pass  ${v.stack}${spec}`
        : `FAIL  ${v.stack}: ${v.reason}${v.keyOrderOnly ? ' (only key order differs)' : ''}${spec}`,
    );
  }
  console.log(
    `\n${passed}/${stacks.length} stacks match` +
      (orderOnly > 0 ? ` (${orderOnly} more differ only in key order)` : ''),
  );
  console.log(`${specs}/${stacks.length} stacks: kdeck compile gives the golden's resources (sorted by id)`);
  return passed === stacks.length ? 0 : 1;
}

process.exitCode = main();
