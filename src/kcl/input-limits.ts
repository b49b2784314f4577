/**
 * What one KCL source file may be, so that no input can exhaust the compiler: a regular file
 * (a device such as /dev/zero or a FIFO would never end), of bounded size, of a bounded number
 * of tokens (the parser's memory grows with tokens, not bytes: a 20 MB string literal is one
 * token, a 5 MB file of small statements is 2.5 million). The largest file in the whole history
 * of KusionStack/konfig is 405 KB, about 60,000 tokens.
 */
import fs from 'node:fs';
import { kclError } from '../diagnostics/diagnostics.js';

export const MAX_SOURCE_BYTES = 32 * 1024 * 1024;
export const MAX_TOKENS = 400_000;

/**
 * The text of a source file, refusing what is not a regular file or is too large to compile.
 * `checked`: the file's sourceStat, when the caller took it already (it is not taken twice).
 */
export function readSource(file: string, checked?: fs.BigIntStats): string {
  if (!checked) sourceStat(file);
  const source = fs.readFileSync(file, 'utf8');
  // the file may have grown between stat and read
  if (source.length > MAX_SOURCE_BYTES) {
    throw kclError('CompileError', `${file} is larger than the ${megabytes(MAX_SOURCE_BYTES)} a kcl file may be`);
  }
  return source;
}

/** What the file system says of a source file, refusing what readSource would refuse before reading. */
export function sourceStat(file: string): fs.BigIntStats {
  let stat: fs.BigIntStats;
  try {
    stat = fs.statSync(file, { bigint: true });
  } catch {
    throw kclError('CannotFindModule', `Cannot find the kcl file, please check the file path ${file}`);
  }
  if (stat.isDirectory()) {
    throw kclError('CannotFindModule', `${file} is a directory, not a kcl file; name the .k files in it instead`);
  }
  if (!stat.isFile()) {
    throw kclError(
      'CannotFindModule',
      `${file} is not a regular file (a device, FIFO or socket); kcl files are read whole`,
    );
  }
  if (stat.size > MAX_SOURCE_BYTES) {
    throw kclError(
      'CompileError',
      `${file} is ${megabytes(Number(stat.size))}, larger than the ${megabytes(MAX_SOURCE_BYTES)} a kcl file may be`,
    );
  }
  return stat;
}

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}
