/**
 * What the console shows, as one immutable value: the workspace's stacks with their last
 * compile, last good Spec and plan, and what the cluster watch says about their resources; the
 * operations running; the event log. The session replaces it on every change (a stack that did
 * not change keeps its object, so views that did not change are not redrawn) and the views
 * read it through a store.
 */
import type { ChangeSet, ResourceChange } from '../../diff/change-set.js';
import type { ResourceGraph } from '../../graph/graph.js';
import type { Health } from '../../health/rules.js';
import type { Spec } from '../../model/resource.js';
import type { Stack } from '../../konfig/workspace.js';
import type { OperationActor } from '../../workflows/operation-machine.js';
import type { Operation } from '../../workflows/stack-operation.js';
import type { CompileFailure } from './compile-protocol.js';
import type { RecoveryEntry } from './recovery.js';
import type { LockHolder } from '../../state/backend.js';
import type { ProductionPolicy } from '../policy/production.js';

export type CompileStatus =
  { state: 'pending' } | { state: 'ok'; ms: number } | { state: 'error'; ms: number; failure: CompileFailure };

export type PlanStatus = { state: 'pending' } | { state: 'ok' } | { state: 'error'; message: string };

/** What the cluster watch last saw of a resource. */
export interface LiveStatus {
  health?: Health;
  /** Changed (or deleted) outside kdeck since the last apply. */
  drift: boolean;
  deleted?: boolean;
}

export interface StackEntry {
  /** `project/stack`: unique in a workspace, and what `:stack` takes. */
  key: string;
  stack: Stack;
  compile: CompileStatus;
  compiling: boolean;
  /** The last Spec that compiled: a compile error keeps it on screen. */
  spec?: Spec;
  graph?: ResourceGraph;
  plan: PlanStatus;
  planning: boolean;
  /** The last plan; it belongs to `spec`. */
  changeSet?: ChangeSet;
  /** By liveKey(cluster, id). */
  live: ReadonlyMap<string, LiveStatus>;
  /** Someone else's operation holding the stack's lock. */
  lock?: LockHolder;
  /** Compiles that have ended, counted: what an event about a compile waits for. */
  compiles: number;
}

export interface OperationEntry {
  stack: string;
  operation: Operation;
  actor: OperationActor;
  /** ms since the epoch. */
  startedAt: number;
  running: boolean;
}

export type EventLevel = 'info' | 'warn' | 'error';

export interface ConsoleEvent {
  at: number;
  level: EventLevel;
  text: string;
  /**
   * The compiles an event is about, with each stack's count of ended compiles when it was
   * logged: it is news (fit for the status line) until each of them has compiled since.
   */
  compiles?: Readonly<Record<string, number>>;
}

/** Whether `event` still describes what is going on: no compile it is about has ended since. */
export function isCurrent(event: ConsoleEvent, state: ConsoleState): boolean {
  if (!event.compiles) return true;
  return Object.entries(event.compiles).some(
    ([key, count]) => (state.stacks.find((s) => s.key === key)?.compiles ?? Infinity) <= count,
  );
}

export interface ContextEntry {
  name: string;
  /** Shown in the warning colour; its dangerous actions need a typed confirmation. */
  prod: boolean;
}

export interface ConsoleState {
  root: string;
  readOnly: boolean;
  contexts: ContextEntry[];
  /** Which contexts are production: the one rule both faces use. */
  production: ProductionPolicy;
  /** The context for stacks that name no cluster. */
  context?: string;
  stacks: StackEntry[];
  operations: ReadonlyMap<string, OperationEntry>;
  recovery?: RecoveryEntry;
  events: ConsoleEvent[];
  /** Watch mode is on (files and clusters). */
  watching: boolean;
}

const EVENT_LIMIT = 500;

export const liveKey = (cluster: string, id: string) => `${cluster}\u0000${id}`;

export function stackKey(stack: Stack): string {
  return `${stack.project.name}/${stack.name}`;
}

export function newStackEntry(stack: Stack): StackEntry {
  return {
    key: stackKey(stack),
    stack,
    compile: { state: 'pending' },
    compiling: false,
    plan: { state: 'pending' },
    planning: false,
    live: new Map(),
    compiles: 0,
  };
}

/** The state with one stack changed by `change` (the others untouched). */
export function withStack(state: ConsoleState, key: string, change: (s: StackEntry) => StackEntry): ConsoleState {
  let changed = false;
  const stacks = state.stacks.map((s) => {
    if (s.key !== key) return s;
    const next = change(s);
    changed ||= next !== s;
    return next;
  });
  return changed ? { ...state, stacks } : state;
}

export function withEvent(state: ConsoleState, event: ConsoleEvent): ConsoleState {
  return { ...state, events: [...state.events, event].slice(-EVENT_LIMIT) };
}

/** A value that changes over time, for useSyncExternalStore. */
export class Store<T> {
  private listeners = new Set<() => void>();
  /** The notification updateLater has scheduled. */
  private pending: NodeJS.Timeout | undefined;

  constructor(private value: T) {}

  get = (): T => this.value;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  update(change: (value: T) => T): void {
    const next = change(this.value);
    if (next === this.value) return;
    this.value = next;
    this.notify();
  }

  /**
   * Changes the value now, and tells the listeners `delayMs` later, unless an update() tells them
   * sooner: for news of work in the background (a compile started, a plan started) that is worth
   * a frame only when the work lasts. A frame is drawn synchronously and takes milliseconds, so
   * drawn at once it held up the work that follows; the work's result, told with update(), is
   * then the only frame. Several changes in a row are told once, by the first one's deadline.
   */
  updateLater(change: (value: T) => T, delayMs: number): void {
    const next = change(this.value);
    if (next === this.value) return;
    this.value = next;
    this.pending ??= setTimeout(() => this.notify(), delayMs);
  }

  private notify(): void {
    clearTimeout(this.pending);
    this.pending = undefined;
    for (const l of this.listeners) l();
  }
}

/** A change set's changes by liveKey(cluster, id), built once per change set. */
const changeIndexes = new WeakMap<ChangeSet, Map<string, ResourceChange>>();
export function changeIndex(cs: ChangeSet): ReadonlyMap<string, ResourceChange> {
  let index = changeIndexes.get(cs);
  if (!index) {
    index = new Map(cs.changes.map((c) => [liveKey(c.cluster, c.id), c]));
    changeIndexes.set(cs, index);
  }
  return index;
}
