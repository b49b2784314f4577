/**
 * How the console's process runs: React's production build (its development build checks and
 * times every render, several times slower) and V8's optimize-for-size mode. The console is a
 * long-lived process whose frames, plans and watch events make a steady stream of short-lived
 * garbage; left to its defaults V8 lets the heap grow far past what is live (a 1,000-resource
 * stack peaked at 334 MB, about 200 MB in this mode), for frames a few milliseconds slower
 * (p95 about 10 → 30 ms in `npm run bench`, under the 50 ms budget). Set before the app's modules load, so that
 * the compile worker started later shares it.
 */
import v8 from 'node:v8';

export function tuneConsoleRuntime(): void {
  process.env.NODE_ENV ??= 'production';
  v8.setFlagsFromString('--optimize-for-size');
}
