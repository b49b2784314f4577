/**
 * Preloaded (`node --import`) by pathological-report.ts into the command it measures: on exit,
 * writes the process's peak resident memory (KiB) to the file KDECK_RSS_FILE names.
 */
import fs from 'node:fs';

const target = process.env.KDECK_RSS_FILE;
if (target) process.on('exit', () => fs.writeFileSync(target, String(process.resourceUsage().maxRSS)));
