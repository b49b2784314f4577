/**
 * What a program's kcl.mod says about the KCL it was written for: `kclvm_version` in the
 * `[expected]` section (`kclvm_version = "v0.4.0"`), which KCL v0.4 repositories declare. kdeck
 * keeps the few output rules that changed since then for the programs that ask for them.
 */
import fs from 'node:fs';
import path from 'node:path';

/** `[major, minor]` of `[expected] kclvm_version`, or undefined when kcl.mod does not say. */
export function expectedKclVersion(root: string): [number, number] | undefined {
  let text: string;
  try {
    text = fs.readFileSync(path.join(root, 'kcl.mod'), 'utf8');
  } catch {
    return undefined;
  }
  let section = '';
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/#.*$/, '').trim();
    const header = /^\[([^\]]+)\]$/.exec(line);
    if (header) {
      section = header[1].trim();
      continue;
    }
    const entry = /^kclvm_version\s*=\s*["']v?(\d+)\.(\d+)/.exec(line);
    if (section === 'expected' && entry) return [Number(entry[1]), Number(entry[2])];
  }
  return undefined;
}

/** Written for KCL v0.4 or older, whose output left empty lists out and did not print the values
 * of bare expression statements (kcl v0.5 made those part of the output). */
export function writtenForKclV04(root: string): boolean {
  const v = expectedKclVersion(root);
  return v !== undefined && v[0] === 0 && v[1] <= 4;
}
