/**
 * How the console's process runs: React's production build (its development build checks and
 * times every render, several times slower) and a bound on how far V8 lets the heap grow past
 * what is live. The console is a long-lived process whose frames, plans and watch events make
 * a steady stream of short-lived garbage; left to its defaults V8 lets the old generation grow
 * to about four times what survived the last full collection (a 1,000-resource stack peaked
 * at about 300 MB). Growth of at most half of what is live keeps that stack under 200 MB.
 * V8's optimize-for-size mode kept it lower (about 155 MB) at the frames' expense: in its
 * memory-reducing mode it collected and compacted the whole heap about every 20 keys on that
 * stack, and a key cost about 21 ms of CPU instead of 12. V8's memory reducer is off: 8 s
 * after the heap last grew it collects and shrinks it, so a save after the user paused to read
 * paid for faulting the memory back in (the median save to screen 8 s apart: 134-138 ms with it,
 * 121-126 ms without, on the bench's machine); the peak, which the console's budget bounds, is
 * the same. Set before the app's modules load, so that the compile worker started later shares it.
 */
import v8 from 'node:v8';

export function tuneConsoleRuntime(): void {
  process.env.NODE_ENV ??= 'production';
  v8.setFlagsFromString('--heap-growing-percent=50');
  v8.setFlagsFromString('--no-memory-reducer');
}
