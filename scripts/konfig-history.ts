/**
 * The history of a Konfig repository as a test corpus: every commit of a clone that carries
 * stack goldens (`ci-test/stdout.golden.yaml`, each checked by kusion's CI with the KCL version
 * the commit's kcl.mod names) is checked out in turn, every stack with a golden is compiled, and
 * its output compared with the golden: exactly (documents and keys in order), and as a set of
 * resources (documents matched by id, key order aside). Reported per commit and overall.
 *
 *   npm run konfig-compat -- <konfig clone> --history [--filter s] [--commits N]
 *
 * The clone's work tree is checked out commit by commit (it must be a clone made for this,
 * outside this repository), and is left at the commit it started on.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { runKcl } from '../src/kcl/run.js';
import { runOptionsFromSettings } from '../src/kcl/settings.js';
import { settingsFiles } from '../src/konfig/compile.js';
import { crdResources } from '../src/konfig/crd.js';
import { specToYaml } from '../src/konfig/spec-yaml.js';
import { firstDifference, loadDocuments } from './document-diff.js';
import { withGoKeyOrder } from './go-yaml-order.js';
import { loadWorkspace, type Stack } from '../src/konfig/workspace.js';
import { failureLine } from './failure-line.js';

const GOLDEN = 'ci-test/stdout.golden.yaml';

export interface StackOutcome {
  stack: string;
  exact: boolean;
  /** The same resources (by id) with the same values, whatever the order of documents and keys. */
  asSet: boolean;
  /** The first differing path, or the error, when not exact. */
  reason?: string;
}

export interface CommitOutcome {
  commit: string;
  date: string;
  stacks: StackOutcome[];
}

const git = (clone: string, ...args: string[]): string =>
  execFileSync('git', ['-C', clone, ...args], { encoding: 'utf8', maxBuffer: 64 * 2 ** 20 });

/** The commits (oldest first) whose tree holds at least one golden. */
export function commitsWithGoldens(clone: string): { commit: string; date: string; goldens: string[] }[] {
  const out: { commit: string; date: string; goldens: string[] }[] = [];
  for (const line of git(clone, 'log', '--reverse', '--format=%H %ad', '--date=short').trim().split('\n')) {
    const [commit, date] = line.split(' ');
    const goldens = git(clone, 'ls-tree', '-r', '--name-only', commit)
      .split('\n')
      .filter((f) => f.endsWith(GOLDEN));
    if (goldens.length > 0) out.push({ commit, date, goldens });
  }
  return out;
}

/**
 * Which `kusion compile` wrote a golden shows in its form. Up to v0.7 kusion printed KCL's own
 * output, a stream of documents. From v0.8 (Konfig's CI moved to it in April 2023) its spec
 * generator printed the Spec, one YAML list of resources: the project's CRD files appended, and
 * every KCL document read into kusion's Resource (pkg/engine ResourcesYAML2Spec).
 */
const isSpecList = (docs: unknown[]): docs is [unknown[]] => docs.length === 1 && Array.isArray(docs[0]);

/**
 * A KCL document as kusion v0.8 read it into a Resource: `id`, `type` and `attributes` always
 * (empty when the document lacks them: a bare manifest becomes `{id: "", type: "", attributes:
 * {}}`), `dependsOn` and `extensions` when not empty; other keys (`mode`) are dropped. Attributes
 * and extensions were Go maps, printed with their keys in Go's order (go-yaml-order.ts).
 */
function asKusionResource(doc: unknown): Map<string, unknown> {
  const get = (k: string): unknown => (doc instanceof Map ? doc.get(k) : undefined);
  const resource = new Map<string, unknown>([
    ['id', get('id') ?? ''],
    ['type', get('type') ?? ''],
    ['attributes', withGoKeyOrder(get('attributes') ?? new Map())],
  ]);
  const dependsOn = get('dependsOn');
  if (Array.isArray(dependsOn) && dependsOn.length > 0) resource.set('dependsOn', dependsOn);
  const extensions = get('extensions');
  if (extensions instanceof Map && extensions.size > 0) resource.set('extensions', withGoKeyOrder(extensions));
  return resource;
}

/**
 * The same data as Konfig's own golden test compared it (hack/test_konfig.py: Python equality of
 * the loaded YAML): mapping keys in any order, and `8.0` equal to `8` (kusion, which wrote the
 * goldens, printed whole floats as ints).
 */
function normalized(x: unknown): unknown {
  if (Array.isArray(x)) return x.map(normalized);
  if (x instanceof Map) {
    const keys = [...x.keys()].sort((a, b) => (String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0));
    return new Map(keys.map((k) => [k, normalized(x.get(k))]));
  }
  if (typeof x === 'number' && Number.isInteger(x)) return BigInt(x);
  return x;
}

const idOf = (doc: unknown): string => (doc instanceof Map ? String(doc.get('id') ?? '') : JSON.stringify(doc));
const byId = (docs: unknown[]): unknown[] =>
  [...docs].sort((a, b) => (idOf(a) < idOf(b) ? -1 : idOf(a) > idOf(b) ? 1 : 0));

/** Compiles one stack as kusion's CI did and compares it with its golden. */
export function judgeStack(root: string, stack: Stack | undefined, goldenDir: string): StackOutcome {
  const name = path.relative(root, goldenDir) || '.';
  const failed = (reason: string): StackOutcome => ({ stack: name, exact: false, asSet: false, reason });
  if (!stack) return failed('not a stack (no stack.yaml beside the golden, or the workspace does not load)');
  let expected: unknown[];
  let spec: boolean;
  try {
    const golden = loadDocuments(readFileSync(path.join(goldenDir, GOLDEN), 'utf8'));
    spec = isSpecList(golden);
    expected = isSpecList(golden) ? golden[0] : golden;
  } catch (e) {
    return failed(`golden: ${(e as Error).message}`);
  }
  let actual: unknown[];
  try {
    actual = loadDocuments(runKcl(runOptionsFromSettings(settingsFiles(stack), stack.dir)).yaml);
    if (spec) {
      const crds = crdResources(stack.dir);
      actual = [...actual, ...loadDocuments(specToYaml({ resources: crds }))].map(asKusionResource);
    }
  } catch (e) {
    return failed(failureLine(e));
  }
  const exact = firstDifference(expected, actual);
  if (!exact) return { stack: name, exact: true, asSet: true };
  const set = firstDifference(byId(expected).map(normalized), byId(actual).map(normalized));
  const asSet = !set;
  // when even the set differs, that difference is the one worth reading
  const shown = set ?? exact;
  return { stack: name, exact: false, asSet, reason: `${shown.path}: ${shown.message}` };
}

function stacksOf(root: string): Map<string, Stack> {
  const stacks = new Map<string, Stack>();
  try {
    for (const s of loadWorkspace(root).projects.flatMap((p) => p.stacks)) stacks.set(path.resolve(s.dir), s);
  } catch {
    // a layout the workspace loader refuses: each golden is then reported as not a stack
  }
  return stacks;
}

/** Checks out each commit with goldens and judges its stacks; `onCommit` reports as it goes. */
export function judgeHistory(
  clone: string,
  options: { filter?: string; commits?: number },
  onCommit: (c: CommitOutcome) => void,
): CommitOutcome[] {
  const start = git(clone, 'rev-parse', 'HEAD').trim();
  const outcomes: CommitOutcome[] = [];
  let commits = commitsWithGoldens(clone);
  if (options.commits !== undefined && options.commits < commits.length) {
    // an even sample across the history, always with the newest commit
    const step = commits.length / options.commits;
    commits = Array.from(
      { length: options.commits },
      (_, i) => commits[Math.floor(commits.length - 1 - i * step)],
    ).reverse();
  }
  try {
    for (const { commit, date, goldens } of commits) {
      git(clone, 'checkout', '-q', '-f', commit);
      git(clone, 'clean', '-q', '-f', '-d', '-x');
      const root = path.resolve(clone);
      const stacks = stacksOf(root);
      const results: StackOutcome[] = [];
      for (const golden of goldens) {
        const dir = path.resolve(root, path.dirname(path.dirname(golden)));
        if (options.filter !== undefined && !dir.includes(options.filter)) continue;
        if (!existsSync(path.join(dir, GOLDEN))) continue;
        results.push(judgeStack(root, stacks.get(dir), dir));
      }
      const outcome = { commit, date, stacks: results };
      outcomes.push(outcome);
      onCommit(outcome);
    }
  } finally {
    git(clone, 'checkout', '-q', '-f', start);
  }
  return outcomes;
}

/** Runs the history and prints per commit and overall; exit code 0 when every pair matches as a set. */
export function runHistory(clone: string, options: { filter?: string; commits?: number }): number {
  const reasons = new Map<string, number>();
  const outcomes = judgeHistory(clone, options, (c) => {
    const exact = c.stacks.filter((s) => s.exact).length;
    const asSet = c.stacks.filter((s) => s.asSet).length;
    console.log(
      `${c.commit.slice(0, 8)} ${c.date}  exact ${exact}/${c.stacks.length}  as sets ${asSet}/${c.stacks.length}`,
    );
    for (const s of c.stacks.filter((x) => !x.asSet)) {
      console.log(`    FAIL ${s.stack}: ${s.reason}`);
      const key = (s.reason ?? '').replace(/\(.*?:\d+:\d+\)/, '').slice(0, 160);
      reasons.set(key, (reasons.get(key) ?? 0) + 1);
    }
  });
  const pairs = outcomes.flatMap((c) => c.stacks);
  const exact = pairs.filter((s) => s.exact).length;
  const asSet = pairs.filter((s) => s.asSet).length;
  const pct = (n: number) => (pairs.length ? ((100 * n) / pairs.length).toFixed(1) : '0');
  console.log(`\n${outcomes.length} commits, ${pairs.length} (commit, stack) pairs`);
  console.log(`exact: ${exact}/${pairs.length} (${pct(exact)}%)`);
  console.log(`as resource sets: ${asSet}/${pairs.length} (${pct(asSet)}%)`);
  console.log(`failing: ${pairs.length - asSet}`);
  const top = [...reasons].sort((a, b) => b[1] - a[1]).slice(0, 15);
  if (top.length > 0) console.log('\nmost frequent failures:\n' + top.map(([r, n]) => `  ${n}x ${r}`).join('\n'));
  return asSet === pairs.length ? 0 : 1;
}
