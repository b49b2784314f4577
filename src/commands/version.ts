/**
 * `kdeck version` and `kdeck --version`: what kdeck is, and what it runs on, for bug reports
 * (as `kubectl version --client` and `kusion version` answer).
 */
import fs from 'node:fs';
import { Command } from 'commander';

/** kdeck's version, from its package.json: the first one above this module (in dist/src or dist/bin). */
export function kdeckVersion(): string {
  for (let dir = new URL('.', import.meta.url); ; dir = new URL('..', dir)) {
    try {
      const { name, version } = JSON.parse(fs.readFileSync(new URL('package.json', dir), 'utf8')) as {
        name?: unknown;
        version?: unknown;
      };
      if (name === 'kdeck' && typeof version === 'string') return version;
    } catch {
      // no package.json here: look further up
    }
    if (dir.pathname === '/') return 'unknown';
  }
}

export function versionLine(): string {
  return `kdeck ${kdeckVersion()} (node ${process.version}, ${process.platform}/${process.arch})`;
}

export function versionCommand(): Command {
  return new Command('version').description('print the version of kdeck and of the Node.js it runs on').action(() => {
    process.stdout.write(`${versionLine()}\n`);
  });
}
