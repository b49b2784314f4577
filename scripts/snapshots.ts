/**
 * Golden Specs: every stack of a workspace compiled to `<dir>/<project>/<stack>.yaml`. The test
 * suite compares them with a fresh compile; `npm run snapshots:update` rewrites them on purpose
 * and says which files changed.
 *
 * Usage: node dist/scripts/snapshots.js (--check | --update) WORKSPACE SNAPSHOT_DIR
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { KclError, renderDiagnostic } from '../src/diagnostics/diagnostics.js';
import { compileStack } from '../src/konfig/compile.js';
import { specToYaml } from '../src/konfig/spec-yaml.js';
import { loadWorkspace } from '../src/konfig/workspace.js';

export interface Snapshot {
  /** `<project>/<stack>.yaml`, relative to the snapshot folder. */
  name: string;
  text: string;
}

/** Compiles every stack of the workspace in this process (sharing the parse cache). */
export function compileSnapshots(workspace: string): Snapshot[] {
  return loadWorkspace(workspace).projects.flatMap((p) =>
    p.stacks.map((s) => ({ name: `${p.name}/${s.name}.yaml`, text: specToYaml(compileStack(s.dir).spec) })),
  );
}

export interface SnapshotDrift {
  changed: string[];
  added: string[];
  removed: string[];
}

function yamlFilesUnder(dir: string, prefix = ''): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const name = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) return yamlFilesUnder(path.join(dir, e.name), name);
    return e.name.endsWith('.yaml') ? [name] : [];
  });
}

/** How the files in `dir` differ from the snapshots. */
export function snapshotDrift(snapshots: Snapshot[], dir: string): SnapshotDrift {
  const drift: SnapshotDrift = { changed: [], added: [], removed: [] };
  const names = new Set(snapshots.map((s) => s.name));
  for (const s of snapshots) {
    const file = path.join(dir, s.name);
    if (!fs.existsSync(file)) drift.added.push(s.name);
    else if (fs.readFileSync(file, 'utf8') !== s.text) drift.changed.push(s.name);
  }
  drift.removed = yamlFilesUnder(dir).filter((n) => !names.has(n));
  return drift;
}

function writeSnapshots(snapshots: Snapshot[], dir: string, drift: SnapshotDrift): void {
  for (const s of snapshots) {
    if (!drift.added.includes(s.name) && !drift.changed.includes(s.name)) continue;
    fs.mkdirSync(path.dirname(path.join(dir, s.name)), { recursive: true });
    fs.writeFileSync(path.join(dir, s.name), s.text);
  }
  for (const name of drift.removed) fs.rmSync(path.join(dir, name));
}

function main(argv: string[]): number {
  const [mode, workspace, dir] = argv;
  if ((mode !== '--check' && mode !== '--update') || !workspace || !dir) {
    process.stderr.write('usage: node dist/scripts/snapshots.js (--check | --update) WORKSPACE SNAPSHOT_DIR\n');
    return 2;
  }
  let snapshots: Snapshot[];
  try {
    snapshots = compileSnapshots(workspace);
  } catch (e) {
    if (!(e instanceof KclError)) throw e;
    process.stderr.write(renderDiagnostic(e.diagnostic, (f) => fs.readFileSync(f, 'utf8')));
    process.stderr.write('no snapshot was written: every stack must compile first\n');
    return 2;
  }
  const drift = snapshotDrift(snapshots, dir);
  const report = [
    ...drift.changed.map((n) => `changed  ${n}`),
    ...drift.added.map((n) => `added    ${n}`),
    ...drift.removed.map((n) => `removed  ${n}`),
  ];
  if (mode === '--update') writeSnapshots(snapshots, dir, drift);
  const verb = mode === '--update' ? 'updated' : 'differ';
  process.stdout.write(
    report.length
      ? `${report.join('\n')}\n${report.length} snapshot(s) ${verb}\n`
      : `${snapshots.length} snapshots up to date\n`,
  );
  return mode === '--check' && report.length ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2));
}
