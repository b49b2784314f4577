/**
 * A copy of konfig-sample for a test to change freely, with its settings (`.kdeck/config.yaml`)
 * but without what `npm start` or an earlier run left in its `.kdeck` (sandbox clusters, states,
 * logs).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const SAMPLE = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'konfig-sample');

export function copySample(to: string): void {
  const kept = path.join(SAMPLE, '.kdeck', 'config.yaml');
  fs.cpSync(SAMPLE, to, {
    recursive: true,
    filter: (src) => !src.includes(`${path.sep}.kdeck${path.sep}`) || src === kept,
  });
}
