/**
 * End-to-end tests run the built CLI (dist/); a tree edited since the last build would test old
 * code, so the suite rebuilds first whenever a source is newer than the build.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The build's last output: the bundle that the tests run. */
const BUILT = path.join(ROOT, 'dist', 'bin', 'kdeck.js');
const SOURCES = ['src', 'bench', 'scripts', 'grammar', 'tsconfig.json', 'package-lock.json'];

function newestChange(entry: string): number {
  const stat = fs.statSync(entry, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of fs.readdirSync(entry)) {
    // the generated grammar is the build's own output
    if (name === 'grammar.generated.ts') continue;
    newest = Math.max(newest, newestChange(path.join(entry, name)));
  }
  return newest;
}

export default function setup(): void {
  const built = fs.statSync(BUILT, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  const sources = Math.max(...SOURCES.map((s) => newestChange(path.join(ROOT, s))));
  if (sources <= built) return;
  process.stderr.write('dist/ is older than the sources: building before the tests\n');
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
}
