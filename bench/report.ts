/**
 * What every `npm run bench` script shares: the statistics it reports, the targets section
 * (PASS, FAIL or SKIP with the measured value), and running its main function so that an
 * error is one line and exit code 2.
 */

/** The middle value (the upper one of an even count). */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** The p-th percentile, nearest rank. */
export function percentile(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}

export interface Target {
  name: string;
  /** undefined: not measured this time. */
  ok: boolean | undefined;
  detail: string;
}

export function printTargets(targets: readonly Target[]): void {
  console.log('\ntargets');
  for (const t of targets)
    console.log(`  ${t.ok === undefined ? 'SKIP' : t.ok ? 'PASS' : 'FAIL'}  ${t.name.padEnd(38)} ${t.detail}`);
}

/** Runs a bench's main: its result is the exit code; a failure is reported in one line, exit 2. */
export function runBench(main: () => Promise<number | void>): void {
  main().then(
    (code) => {
      process.exitCode = code ?? 0;
    },
    (e: unknown) => {
      console.error(e instanceof Error ? e.message : e);
      process.exitCode = 2;
    },
  );
}
