/**
 * What the views show, derived from the console's state: a stack's badge, its resource rows,
 * and short names for ids. Pure, so the tests and the bench call it without a screen.
 */
import { summarize } from '../diff/change-set.js';
import { idParts } from '../model/ids.js';
import type { Action } from '../diff/actions.js';
import type { Health } from '../health/rules.js';
import type { Tone } from '../views/theme.js';
import { liveKey, type LiveStatus, type OperationEntry, type StackEntry } from '../app/console/state.js';

export type BadgeKind = 'pending' | 'unchanged' | 'changes' | 'drift' | 'unhealthy' | 'error' | 'running' | 'locked';

export interface Badge {
  kind: BadgeKind;
  text: string;
  tone: Tone;
}

/**
 * The badges already judged, per stack entry: an entry is replaced whenever it changes, and the
 * tree asks for every stack's badge on every frame, each a pass over its live objects and plan.
 */
const badges = new WeakMap<StackEntry, { running?: boolean; outcome: unknown; badge: Badge }>();

/** A stack's badge: the one thing about it that matters most (precedence below). */
export function stackBadge(s: StackEntry, operation?: OperationEntry): Badge {
  const running = operation?.running;
  const outcome = operation?.actor.getSnapshot().context.result;
  const known = badges.get(s);
  if (known && known.running === running && known.outcome === outcome) return known.badge;
  const badge = judgeBadge(s, operation);
  badges.set(s, { running, outcome, badge });
  return badge;
}

const someLive = (s: StackEntry, test: (l: LiveStatus) => boolean) => {
  for (const l of s.live.values()) if (test(l)) return true;
  return false;
};

function judgeBadge(s: StackEntry, operation?: OperationEntry): Badge {
  if (operation?.running)
    return { kind: 'running', text: operation.operation === 'apply' ? 'applying' : 'destroying', tone: 'progress' };
  if (s.compile.state === 'error' || s.plan.state === 'error') return { kind: 'error', text: 'error', tone: 'danger' };
  if (s.lock) return { kind: 'locked', text: `locked: ${s.lock.user}`, tone: 'warning' };
  if (!s.changeSet) return { kind: 'pending', text: '…', tone: 'muted' };
  // the last operation's outcome counts as much as the live objects: a workload whose pods
  // crash-loop may look merely Progressing on its own, but the operation judged it Degraded
  const lastOutcome = operation?.actor.getSnapshot().context.result;
  if (someLive(s, (l) => l.health?.state === 'Degraded') || (lastOutcome?.unhealthy.length ?? 0) > 0)
    return { kind: 'unhealthy', text: 'unhealthy', tone: 'danger' };
  if (s.changeSet.changes.some((c) => c.decision.drift) || someLive(s, (l) => l.drift === true))
    return { kind: 'drift', text: 'drift', tone: 'warning' };
  const n = summarize(s.changeSet.changes);
  const changes = n.Create + n.Update + n.Delete + n.Import;
  if (changes) return { kind: 'changes', text: `${changes} change${changes === 1 ? '' : 's'}`, tone: 'accent' };
  return { kind: 'unchanged', text: 'unchanged', tone: 'ok' };
}

export interface ResourceRow {
  /** liveKey(cluster, id) */
  key: string;
  id: string;
  kind: string;
  /** namespace/name */
  name: string;
  cluster: string;
  /** undefined while the first plan is being made */
  action?: Action;
  drift: boolean;
  health?: Health;
  deleted?: boolean;
}

/** The resources of a stack, in the order an apply takes them, with what the watch knows. */
export function resourceRows(s: StackEntry): ResourceRow[] {
  if (s.changeSet) {
    return s.changeSet.changes.map((c) => {
      const key = liveKey(c.cluster, c.id);
      const live = s.live.get(key);
      const p = idParts(c.id);
      return {
        key,
        id: c.id,
        kind: p.kind,
        name: [p.namespace, p.name].filter(Boolean).join('/'),
        cluster: c.cluster,
        action: c.action,
        drift: c.decision.drift || (live?.drift ?? false),
        ...(live?.health ? { health: live.health } : {}),
        ...(live?.deleted ? { deleted: true } : {}),
      };
    });
  }
  return (s.spec?.resources ?? []).map((r) => {
    const p = idParts(r.id);
    const cluster = s.stack.cluster ?? '';
    return {
      key: liveKey(cluster, r.id),
      id: r.id,
      kind: p.kind,
      name: [p.namespace, p.name].filter(Boolean).join('/'),
      cluster,
      drift: false,
    };
  });
}

/** Rows whose text holds `filter` (case-insensitive); a leading `!` keeps the others. */
export function filterRows<T>(rows: readonly T[], filter: string, text: (row: T) => string): readonly T[] {
  if (!filter) return rows;
  const invert = filter.startsWith('!');
  const needle = (invert ? filter.slice(1) : filter).toLowerCase();
  if (!needle) return rows;
  return rows.filter((r) => text(r).toLowerCase().includes(needle) !== invert);
}

export const rowText = (r: ResourceRow) =>
  `${r.id} ${r.cluster} ${r.action ?? ''}${r.drift ? ' drift' : ''} ${r.health?.state ?? ''}`;
