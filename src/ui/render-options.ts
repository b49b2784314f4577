/**
 * How Ink renders the console: shared by the console and by the bench that times its frames, so
 * that the bench sees the frames a user sees. Ink draws at most `maxFps` frames a second and
 * holds a frame that comes sooner until its turn; 60 keeps that turn shorter than the gap between
 * two keys a terminal repeats (about 30 a second), so a held key never waits for it.
 */
export const RENDER_OPTIONS = { exitOnCtrlC: false, patchConsole: false, maxFps: 60 } as const;

/** The longest Ink holds a frame back, ms. */
export const FRAME_INTERVAL_MS = Math.ceil(1000 / RENDER_OPTIONS.maxFps);
