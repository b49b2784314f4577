/**
 * The console's engine room, with no screen: it compiles every stack (in the compile worker),
 * plans each against its state and live clusters, recompiles only the stacks a saved file
 * concerns, follows the clusters to mark drift and health as they happen, and runs the
 * operations the user asks for. Everything it learns goes into one store the views read.
 */
import type { Confirmation } from './confirmation.js';
import { manifestId } from '../../model/resource.js';
import type { ClusterSet } from '../../cluster/cluster-set.js';
import type { FieldChange } from '../../diff/fields.js';
import { graphOf } from '../../graph/graph.js';
import { loadWorkspace, type Stack, type Workspace } from '../../konfig/workspace.js';
import type { StackInputs } from '../../konfig/stack-inputs.js';
import type { StateBackend } from '../../state/backend.js';
import { errorMessage, UserError } from '../../diagnostics/user-error.js';
import { keyFor, planChanges } from '../../workflows/plan.js';
import { describeHolder, type LockHolder } from '../../state/backend.js';
import { LockWatch } from './lock-watch.js';
import type { Operation } from '../../workflows/stack-operation.js';
import { DefaultedClusters } from '../workspace.js';
import { affectedStacks } from './affected.js';
import type { ConsoleControl } from './control.js';
import type { StackCompiler } from './compiler.js';
import type { CompileOutcome } from './compile-protocol.js';
import { changeIndex } from './state.js';
import { shortId } from '../../model/ids.js';
import { watchWorkspace, type FileWatch } from './file-watch.js';
import { liveStatusAfter, plannedLiveStatus } from './live-status.js';
import { LiveWatch, type LiveEvent } from './live-watch.js';
import { OperationRunner } from './operations.js';
import { listedProductionContexts, ProductionPolicy } from '../policy/production.js';
import { ConsoleRecovery, type RecoveryCommand } from './recovery.js';
import {
  liveKey,
  newStackEntry,
  stackKey,
  Store,
  withEvent,
  withStack,
  type ConsoleState,
  type EventLevel,
  type LiveStatus,
  type StackEntry,
} from './state.js';

export interface SessionOptions {
  /** The folder the console was opened on (a workspace, a project or below). */
  dir: string;
  clusterSet: ClusterSet;
  backend: StateBackend;
  compiler: StackCompiler;
  /** `--context`s: the contexts to show and offer; the first is the default. Empty: all of the kubeconfig's. */
  contexts: string[];
  readOnly: boolean;
  /** Watch files and clusters (the console does; some tests do not). */
  watch: boolean;
  now?: () => number;
  /** Wait after a file event before recompiling, to gather one save's events. */
  debounceMs?: number;
  operation?: { concurrency: number; timeoutMs: number };
}

/** Plans made at once (each is a few reads and dry runs per resource). */
const PLAN_CONCURRENCY = 4;
/** After a drift is seen, wait this long for more before planning again. */
const REPLAN_AFTER_DRIFT_MS = 300;

/** Whether two readings of a resource would look the same on screen. */
function sameLive(a: LiveStatus | undefined, b: LiveStatus): boolean {
  return (
    a !== undefined &&
    a.drift === b.drift &&
    a.deleted === b.deleted &&
    a.health?.state === b.health?.state &&
    a.health?.reason === b.health?.reason &&
    a.health?.message === b.health?.message
  );
}

function driftText(stack: string, id: string, cluster: string, deleted: boolean, fields: FieldChange[]): string {
  return `${stack}: ${shortId(id)} on ${cluster} ${deleted ? 'was deleted' : `changed (${fields.map((f) => f.path).join(', ')})`} outside kdeck`;
}

export class ConsoleSession implements ConsoleControl {
  readonly store: Store<ConsoleState>;
  private workspace: Workspace;
  private clusters: DefaultedClusters;
  private readonly inputs = new Map<string, StackInputs | undefined>();
  private readonly compileQueue: string[] = [];
  private compilingNow: string | undefined;
  private readonly compileAgain = new Set<string>();
  private focused: string | undefined;
  private readonly planningNow = new Set<string>();
  private readonly planAgain = new Set<string>();
  private readonly planWaiting: string[] = [];
  private readonly replanTimers = new Map<string, NodeJS.Timeout>();
  /** liveKey → the stacks that plan the resource. */
  private liveIndex = new Map<string, Set<string>>();
  private fileWatch: FileWatch | undefined;
  private liveWatch: LiveWatch | undefined;
  private lockWatch: LockWatch | undefined;
  readonly operations: OperationRunner;
  private readonly recovery: ConsoleRecovery;
  private closed = false;
  private readonly now: () => number;

  constructor(private readonly options: SessionOptions) {
    this.now = options.now ?? Date.now;
    this.workspace = loadWorkspace(options.dir);
    const names = options.contexts.length ? options.contexts : options.clusterSet.contexts.map((c) => c.name);
    const stacks = this.allStacks();
    const production = new ProductionPolicy(options.clusterSet.contexts, listedProductionContexts(this.workspace.root));
    const context = options.contexts[0] ?? options.clusterSet.current;
    this.clusters = new DefaultedClusters(options.clusterSet, context);
    this.store = new Store<ConsoleState>({
      root: this.workspace.root,
      readOnly: options.readOnly,
      contexts: names.map((name) => ({ name, prod: production.isProduction(name) })),
      production,
      ...(context ? { context } : {}),
      stacks: stacks.map(newStackEntry),
      operations: new Map(),
      events: [],
      watching: options.watch,
    });
    for (const s of stacks) this.inputs.set(stackKey(s), undefined);
    this.operations = new OperationRunner({
      store: this.store,
      clusters: () => this.clusters,
      clusterSet: options.clusterSet,
      backend: options.backend,
      readOnly: options.readOnly,
      settings: options.operation ?? { concurrency: 8, timeoutMs: 300_000 },
      log: (level, text) => this.log(level, text),
      finished: (key) => this.plan(key),
      now: this.now,
    });
    this.recovery = new ConsoleRecovery({
      root: this.workspace.root,
      store: this.store,
      clusterSet: options.clusterSet,
      readOnly: options.readOnly,
      log: (level, text) => this.log(level, text),
    });
  }

  private allStacks(): Stack[] {
    return this.workspace.projects.flatMap((p) => p.stacks);
  }

  /** Compiles and plans every stack, and starts watching; resolves once the file watch is ready. */
  async start(): Promise<void> {
    this.compile(this.store.get().stacks.map((s) => s.key));
    if (!this.options.watch) return;
    this.liveWatch = new LiveWatch(
      this.options.clusterSet,
      (events) => this.onLive(events),
      (text) => this.log('warn', text),
    );
    this.lockWatch = new LockWatch(
      this.options.backend,
      (key, holder) => this.onLock(key, holder),
      (text) => this.log('warn', text),
    );
    this.fileWatch = watchWorkspace(this.workspace.root, (files) => this.onFiles(files), {
      debounceMs: this.options.debounceMs,
      onError: (text) => this.log('error', text),
    });
    await this.fileWatch.ready;
  }

  private onLock(key: string, holder: LockHolder | undefined): void {
    this.store.update((s) => withStack(s, key, (e) => ({ ...e, lock: holder })));
    this.log(
      holder ? 'warn' : 'info',
      holder ? `${key}: locked by ${describeHolder(holder)}` : `${key}: no longer locked`,
    );
  }

  log(level: EventLevel, text: string): void {
    this.store.update((s) => withEvent(s, { at: this.now(), level, text }));
  }

  private entry(key: string): StackEntry | undefined {
    return this.store.get().stacks.find((s) => s.key === key);
  }

  /** The stack the user looks at compiles first. */
  focus(key: string): void {
    this.focused = key;
  }

  // ---- compiling ------------------------------------------------------------------------

  compile(keys: string[]): void {
    for (const key of keys) {
      if (this.compilingNow === key) this.compileAgain.add(key);
      else if (!this.compileQueue.includes(key)) this.compileQueue.push(key);
    }
    this.pumpCompiles();
  }

  private pumpCompiles(): void {
    if (this.compilingNow || this.closed || this.compileQueue.length === 0) return;
    const first = this.focused ? this.compileQueue.indexOf(this.focused) : -1;
    const key = this.compileQueue.splice(first > 0 ? first : 0, 1)[0];
    const entry = this.entry(key);
    if (!entry) return this.pumpCompiles();
    this.compilingNow = key;
    this.store.update((s) => withStack(s, key, (e) => ({ ...e, compiling: true })));
    void this.options.compiler.compile(entry.stack.dir).then((outcome) => {
      this.compilingNow = undefined;
      if (!this.closed) this.compiled(key, outcome);
      if (this.compileAgain.delete(key)) this.compileQueue.unshift(key);
      this.pumpCompiles();
    });
  }

  private compiled(key: string, outcome: CompileOutcome): void {
    if (!this.entry(key)) return;
    this.inputs.set(key, outcome.inputs);
    const wasError = this.entry(key)?.compile.state === 'error';
    if (outcome.ok) {
      this.store.update((s) =>
        withStack(s, key, (e) => ({
          ...e,
          compiling: false,
          compile: { state: 'ok', ms: outcome.ms },
          spec: outcome.spec,
          graph: graphOf(outcome.spec),
        })),
      );
      if (wasError) this.log('info', `${key} compiles again`);
      this.plan(key);
      return;
    }
    this.store.update((s) =>
      withStack(s, key, (e) => ({
        ...e,
        compiling: false,
        compile: { state: 'error', ms: outcome.ms, failure: outcome.failure },
      })),
    );
    this.log('error', `${key}: ${outcome.failure.summary}`);
  }

  private onFiles(files: string[]): void {
    const { stacks, layout } = affectedStacks(files, this.inputs);
    if (layout) this.reloadLayout();
    const names = files.map((f) => f.slice(this.workspace.root.length + 1)).join(', ');
    this.log(
      'info',
      stacks.length ? `${names} changed: compiling ${stacks.join(', ')}` : `${names} changed: no stack reads it`,
    );
    this.compile(stacks);
  }

  /** A stack or project file came or went: the stacks are listed again. */
  private reloadLayout(): void {
    try {
      this.workspace = loadWorkspace(this.options.dir);
    } catch (e) {
      this.log('error', `the workspace cannot be read: ${errorMessage(e)}`);
      return;
    }
    const stacks = this.allStacks();
    const fresh = stacks.filter((s) => !this.inputs.has(stackKey(s)));
    for (const s of fresh) this.inputs.set(stackKey(s), undefined);
    const keep = new Set(stacks.map(stackKey));
    for (const k of [...this.inputs.keys()]) if (!keep.has(k)) this.inputs.delete(k);
    this.store.update((state) => ({
      ...state,
      stacks: stacks.map((s) => {
        const old = state.stacks.find((e) => e.key === stackKey(s));
        return old ? { ...old, stack: s } : newStackEntry(s);
      }),
    }));
    if (fresh.length) this.log('info', `new stack${fresh.length > 1 ? 's' : ''}: ${fresh.map(stackKey).join(', ')}`);
  }

  // ---- planning -------------------------------------------------------------------------

  /** Plans the stack again (now, or after the plan in flight). */
  plan(key: string): void {
    if (this.closed || !this.entry(key)?.spec) return;
    if (this.planningNow.has(key)) {
      this.planAgain.add(key);
      return;
    }
    if (this.planningNow.size >= PLAN_CONCURRENCY) {
      if (!this.planWaiting.includes(key)) this.planWaiting.push(key);
      return;
    }
    this.planningNow.add(key);
    void this.planOne(key).finally(() => {
      this.planningNow.delete(key);
      if (this.planAgain.delete(key)) this.plan(key);
      const next = this.planWaiting.shift();
      if (next) this.plan(next);
    });
  }

  private async planOne(key: string): Promise<void> {
    const entry = this.entry(key)!;
    const spec = entry.spec!;
    this.store.update((s) => withStack(s, key, (e) => ({ ...e, planning: true })));
    try {
      const changeSet = await planChanges({
        stack: entry.stack,
        spec,
        clusters: this.clusters,
        backend: this.options.backend,
      });
      if (this.closed) return;
      const live = new Map<string, LiveStatus>(
        changeSet.changes.map((c) => [liveKey(c.cluster, c.id), plannedLiveStatus(c)]),
      );
      const before = this.entry(key)?.live;
      this.store.update((s) =>
        withStack(s, key, (e) => ({ ...e, planning: false, plan: { state: 'ok' }, changeSet, live })),
      );
      // drift is reported once, by whichever sees it first: this plan or the watch
      for (const c of changeSet.changes) {
        if (c.decision.drift && !before?.get(liveKey(c.cluster, c.id))?.drift)
          this.log('warn', `drift: ${driftText(key, c.id, c.cluster, !c.live, c.decision.driftFields)}`);
      }
      this.indexLive();
      this.lockWatch?.track(
        key,
        [...changeSet.states.keys()].map((c) => keyFor(entry.stack, c)),
      );
      for (const c of changeSet.changes) {
        const attrs = c.resource?.attributes ?? c.prior?.attributes;
        if (attrs) this.liveWatch?.ensure(c.cluster, String(attrs.apiVersion), String(attrs.kind));
      }
    } catch (e) {
      if (this.closed) return;
      const message = errorMessage(e);
      this.store.update((s) =>
        withStack(s, key, (x) => ({ ...x, planning: false, plan: { state: 'error', message } })),
      );
      this.log('error', `${key}: cannot compare with the cluster: ${message}`);
    }
  }

  private indexLive(): void {
    const index = new Map<string, Set<string>>();
    for (const s of this.store.get().stacks) {
      for (const c of s.changeSet?.changes ?? []) {
        const k = liveKey(c.cluster, c.id);
        if (!index.has(k)) index.set(k, new Set());
        index.get(k)!.add(s.key);
      }
    }
    this.liveIndex = index;
  }

  // ---- the clusters' watch --------------------------------------------------------------

  private onLive(events: LiveEvent[]): void {
    // the latest object per resource, gathered per stack: one new live map per stack and batch
    const latest = new Map<string, Map<string, LiveEvent>>();
    for (const e of events) {
      const id = manifestId(e.object);
      if (typeof id !== 'string') continue;
      const k = liveKey(e.cluster, id);
      for (const stack of this.liveIndex.get(k) ?? []) {
        if (!latest.has(stack)) latest.set(stack, new Map());
        latest.get(stack)!.set(k, e);
      }
    }
    const drifted: string[] = [];
    const replan = new Set<string>();
    this.store.update((state) => {
      let next = state;
      for (const [stack, byKey] of latest) {
        // while kdeck itself changes the stack, changes are not drift
        const running = state.operations.get(stack)?.running ?? false;
        next = withStack(next, stack, (entry) => {
          if (!entry.changeSet) return entry;
          const changes = changeIndex(entry.changeSet);
          let live: Map<string, LiveStatus> | undefined;
          for (const [k, e] of byKey) {
            const change = changes.get(k);
            if (!change) continue;
            const before = entry.live.get(k);
            const { status, driftFields } = liveStatusAfter(change, e.type === 'DELETED' ? undefined : e.object);
            const after = running ? { ...status, drift: false } : status;
            if (sameLive(before, after)) continue;
            if (after.drift && !before?.drift) {
              drifted.push(driftText(stack, change.id, change.cluster, after.deleted === true, driftFields));
              replan.add(stack);
            }
            live ??= new Map(entry.live);
            live.set(k, after);
          }
          return live ? { ...entry, live } : entry;
        });
      }
      return next;
    });
    for (const text of drifted) this.log('warn', `drift: ${text}`);
    for (const stack of replan) this.replanSoon(stack);
  }

  private replanSoon(key: string): void {
    clearTimeout(this.replanTimers.get(key));
    this.replanTimers.set(
      key,
      setTimeout(() => {
        this.replanTimers.delete(key);
        this.plan(key);
      }, REPLAN_AFTER_DRIFT_MS),
    );
  }

  // ---- what the user asks for -----------------------------------------------------------

  startOperation(stack: string, operation: Operation, confirmed: Confirmation): Promise<void> {
    return this.operations.start(stack, operation, confirmed);
  }

  interrupt(stack: string): boolean {
    return this.operations.interrupt(stack);
  }

  refresh(stack: string): void {
    this.compile([stack]);
  }

  /** `:ctx NAME`: the context for stacks that name no cluster. */
  setContext(name: string): void {
    if (!this.options.clusterSet.contexts.some((c) => c.name === name)) {
      throw new UserError(
        `there is no context ${name}; the contexts are ${this.options.clusterSet.contexts.map((c) => c.name).join(', ')}`,
      );
    }
    this.clusters = new DefaultedClusters(this.options.clusterSet, name);
    this.store.update((s) => ({ ...s, context: name }));
    this.log('info', `context ${name} for the stacks that name no cluster`);
    for (const s of this.store.get().stacks) if (!s.stack.cluster) this.plan(s.key);
  }

  /** `:recover RUNBOOK hosts=...`: the runbook's plan, shown in the Recovery view. */
  planRecovery(runbook: string, args: string[]): Promise<void> {
    return this.recovery.plan(runbook, args);
  }

  openSavedRun(runId: string): void {
    this.recovery.openSaved(runId);
  }

  runRecovery(): Promise<void> {
    return this.recovery.start();
  }

  steerRecovery(command: RecoveryCommand): boolean {
    return this.recovery.steer(command);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const t of this.replanTimers.values()) clearTimeout(t);
    this.liveWatch?.close();
    this.lockWatch?.close();
    await this.fileWatch?.close();
    await this.operations.stopAll();
    await this.recovery.close();
    await this.options.compiler.close();
  }
}
