/**
 * Semantic colours: components ask for what a thing means (ok, warning, danger), never for a
 * colour, so a theme (or NO_COLOR) changes them in one place.
 */
import type { HealthState } from '../health/rules.js';
import type { ResourcePhase } from '../workflows/operation-machine.js';
import type { Action } from '../diff/actions.js';

export const theme = {
  ok: 'green',
  progress: 'cyan',
  warning: 'yellow',
  danger: 'red',
  muted: 'gray',
  accent: 'blue',
} as const;

export type Tone = keyof typeof theme;

export const healthTone: Record<HealthState, Tone> = { Healthy: 'ok', Progressing: 'progress', Degraded: 'danger' };

export const phaseGlyph: Record<ResourcePhase, { glyph: string; tone: Tone }> = {
  pending: { glyph: '·', tone: 'muted' },
  running: { glyph: '◐', tone: 'progress' },
  applied: { glyph: '◑', tone: 'progress' },
  succeeded: { glyph: '✓', tone: 'ok' },
  failed: { glyph: '✗', tone: 'danger' },
  skipped: { glyph: '–', tone: 'warning' },
  // neither is a ✓: one was never seen healthy, the other was deliberately left in the cluster
  stopped: { glyph: '◌', tone: 'warning' },
  forgotten: { glyph: '○', tone: 'muted' },
};

export const actionTone: Record<Action, Tone> = {
  Create: 'ok',
  Update: 'warning',
  Delete: 'danger',
  UnChanged: 'muted',
  Import: 'accent',
};
