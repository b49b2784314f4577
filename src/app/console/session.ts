/**
 * The console's engine room, with no screen: it compiles every stack (in the compile worker),
 * plans each against its state and live clusters, recompiles only the stacks a saved file
 * concerns, follows the clusters to mark drift and health as they happen, and runs the
 * operations the user asks for. When to compile and plan is the machines' (workspace-machine.ts
 * and stack-machine.ts): the watches send them events, and what they learn comes back here to
 * go into the one store the views read.
 */
import { createActor, type ActorOptions, type AnyActorLogic } from 'xstate';
import type { Confirmation } from './confirmation.js';
import type { ClusterSet } from '../../cluster/cluster-set.js';
import { graphOf } from '../../graph/graph.js';
import { loadWorkspace, type Stack, type Workspace } from '../../konfig/workspace.js';
import type { StateBackend } from '../../state/backend.js';
import { errorMessage, UserError } from '../../diagnostics/user-error.js';
import { keyFor, planChanges } from '../../workflows/plan.js';
import { DryRunMemo } from '../../workflows/dry-run-memo.js';
import { describeHolder, type LockHolder } from '../../state/backend.js';
import { LockWatch } from './lock-watch.js';
import type { Operation } from '../../workflows/stack-operation.js';
import { DefaultedClusters } from '../workspace.js';
import type { ConsoleControl } from './control.js';
import type { StackCompiler } from './compiler.js';
import type { CompileOutcome } from './compile-protocol.js';
import type { Affected } from './affected.js';
import type { ChangeSet } from '../../diff/change-set.js';
import type { Spec } from '../../model/resource.js';
import { workspaceMachine, type WorkspaceActor, type WorkspaceEvent } from './workspace-machine.js';
import { watchWorkspace, type FileWatch } from './file-watch.js';
import { plannedLiveStatus } from './live-status.js';
import { LiveWatch, type LiveEvent } from './live-watch.js';
import { driftText, liveIndexOf, withLiveEvents, type LiveIndex } from './live-drift.js';
import { OperationRunner } from './operations.js';
import { ConsoleObjects } from './objects.js';
import { ClusterObjectSource } from '../../cluster/object-source.js';
import { DEFAULT_CONCURRENCY, DEFAULT_TIMEOUT_MS } from '../policy/operation-limits.js';
import { workspaceProduction } from '../policy/production.js';
import { ConsoleRecovery, type RecoveryCommand } from './recovery.js';
import { ClusterPodTools } from '../pods/pod-tools.js';
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
  /** Secret values shown in the live YAML (`kdeck ui --show-secrets`). */
  showSecrets?: boolean;
  /** Watch files and clusters (the console does; some tests do not). */
  watch: boolean;
  now?: () => number;
  /** Wait after a file event before recompiling, to gather one save's events. */
  debounceMs?: number;
  /** The clock of the machines' delays (the debounce, the re-plan after drift); tests pass xstate's SimulatedClock. */
  clock?: Clock;
  operation?: { concurrency: number; timeoutMs: number };
}

type Clock = NonNullable<ActorOptions<AnyActorLogic>['clock']>;

/** An editor's write, rename and chmod of one save come within a few ms of each other. */
const DEBOUNCE_MS = 10;
/**
 * How long a compile or plan runs before the screen says so: a save's compile and plan usually
 * end sooner, and their result is then the one frame drawn (each frame holds the event loop).
 */
const PROGRESS_DELAY_MS = 100;
/** Plans made at once (each is a few reads and dry runs per resource). */
const PLAN_CONCURRENCY = 4;
/** After a drift is seen, wait this long for more before planning again. */
const REPLAN_AFTER_DRIFT_MS = 300;

export class ConsoleSession implements ConsoleControl {
  readonly store: Store<ConsoleState>;
  private workspace: Workspace;
  private clusters: DefaultedClusters;
  /** When each stack compiles and plans: the workspace machine and its stack machines. */
  private readonly engine: WorkspaceActor;
  private liveIndex: LiveIndex = new Map();
  /** Each stack's dry runs, reused by its next plan for the resources a save left as they were. */
  private readonly dryRuns = new Map<string, DryRunMemo>();
  private fileWatch: FileWatch | undefined;
  private liveWatch: LiveWatch | undefined;
  private lockWatch: LockWatch | undefined;
  readonly operations: OperationRunner;
  readonly podTools: ClusterPodTools;
  readonly objects: ConsoleObjects;
  private readonly recovery: ConsoleRecovery;
  private closed = false;
  private readonly now: () => number;

  constructor(private readonly options: SessionOptions) {
    this.now = options.now ?? Date.now;
    this.workspace = loadWorkspace(options.dir);
    const names = options.contexts.length ? options.contexts : options.clusterSet.contexts.map((c) => c.name);
    const stacks = this.allStacks();
    const production = workspaceProduction(this.workspace.root, options.clusterSet.contexts);
    const context = options.contexts[0] ?? options.clusterSet.current;
    this.clusters = new DefaultedClusters(options.clusterSet, context);
    this.podTools = new ClusterPodTools(options.clusterSet);
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
    this.operations = new OperationRunner({
      store: this.store,
      clusters: () => this.clusters,
      clusterSet: options.clusterSet,
      backend: options.backend,
      readOnly: options.readOnly,
      settings: options.operation ?? { concurrency: DEFAULT_CONCURRENCY, timeoutMs: DEFAULT_TIMEOUT_MS },
      log: (level, text) => this.log(level, text),
      finished: (key) => this.plan(key),
      now: this.now,
    });
    this.objects = new ConsoleObjects({
      source: new ClusterObjectSource(options.clusterSet),
      readOnly: options.readOnly,
      showSecrets: options.showSecrets === true,
      now: this.now,
    });
    this.recovery = new ConsoleRecovery({
      root: this.workspace.root,
      store: this.store,
      clusterSet: options.clusterSet,
      readOnly: options.readOnly,
      log: (level, text) => this.log(level, text),
    });
    this.engine = createActor(
      workspaceMachine(
        {
          compile: (key) => this.options.compiler.compile(this.stackOf(key).dir),
          plan: (key, spec) => this.planOf(key, spec),
        },
        {
          compileStarted: (key) =>
            this.store.updateLater((s) => withStack(s, key, (e) => ({ ...e, compiling: true })), PROGRESS_DELAY_MS),
          compiled: (key, outcome) => this.compiled(key, outcome),
          planStarted: (key) =>
            this.store.updateLater((s) => withStack(s, key, (e) => ({ ...e, planning: true })), PROGRESS_DELAY_MS),
          planned: (key, result) =>
            result.ok ? this.planned(key, result.changeSet) : this.planFailed(key, result.message),
          planAbandoned: (key) => this.store.update((s) => withStack(s, key, (e) => ({ ...e, planning: false }))),
          saved: (files, affected) => this.saved(files, affected),
        },
        {
          debounceMs: options.debounceMs ?? DEBOUNCE_MS,
          replanMs: REPLAN_AFTER_DRIFT_MS,
          planConcurrency: PLAN_CONCURRENCY,
        },
      ),
      { input: { stacks: stacks.map(stackKey) }, ...(options.clock ? { clock: options.clock } : {}) },
    );
    this.engine.start();
  }

  /** Tells the machines, unless the console is closing. */
  private tell(event: WorkspaceEvent): void {
    if (!this.closed) this.engine.send(event);
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
    // the workspace machine gathers a save's events: the watch hands them over as they come
    this.fileWatch = watchWorkspace(this.workspace.root, (files) => this.tell({ type: 'FILES', files }), {
      debounceMs: 0,
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

  /** An event for the log; `compiles` names the stacks whose compile it is about (see ConsoleEvent). */
  log(level: EventLevel, text: string, compiles?: readonly string[]): void {
    this.store.update((s) =>
      withEvent(s, {
        at: this.now(),
        level,
        text,
        ...(compiles ? { compiles: Object.fromEntries(compiles.map((k) => [k, this.entry(k)?.compiles ?? 0])) } : {}),
      }),
    );
  }

  private entry(key: string): StackEntry | undefined {
    return this.store.get().stacks.find((s) => s.key === key);
  }

  private stackOf(key: string): Stack {
    const entry = this.entry(key);
    if (!entry) throw new UserError(`there is no stack ${key}`);
    return entry.stack;
  }

  /** The stack the user looks at compiles first. */
  focus(key: string): void {
    this.tell({ type: 'FOCUS', key });
  }

  // ---- compiling ------------------------------------------------------------------------

  /** Compiles the stacks again (and plans them), after the compile in flight. */
  compile(keys: string[]): void {
    this.tell({ type: 'COMPILE', keys });
  }

  private compiled(key: string, outcome: CompileOutcome): void {
    if (!this.entry(key)) return;
    const wasError = this.entry(key)?.compile.state === 'error';
    // a plan follows a good compile: its result is the next frame (the compile shows in it too)
    if (outcome.ok) {
      this.store.updateLater(
        (s) =>
          withStack(s, key, (e) => ({
            ...e,
            compiling: false,
            compiles: e.compiles + 1,
            compile: { state: 'ok', ms: outcome.ms },
            spec: outcome.spec,
            graph: graphOf(outcome.spec),
          })),
        PROGRESS_DELAY_MS,
      );
      if (wasError) this.log('info', `${key} compiles again`, [key]);
      return;
    }
    this.store.update((s) =>
      withStack(s, key, (e) => ({
        ...e,
        compiling: false,
        compiles: e.compiles + 1,
        compile: { state: 'error', ms: outcome.ms, failure: outcome.failure },
      })),
    );
    // the error is news until the stack compiles again, whatever the outcome (a moved error is a new event)
    this.log('error', `${key}: ${outcome.failure.summary}`, [key]);
  }

  /** A save settled: the stacks it concerns are compiling. */
  private saved(files: string[], { stacks, layout }: Affected): void {
    if (layout) this.reloadLayout();
    const names = files.map((f) => f.slice(this.workspace.root.length + 1)).join(', ');
    this.log(
      'info',
      stacks.length ? `${names} changed: compiling ${stacks.join(', ')}` : `${names} changed: no stack reads it`,
      stacks,
    );
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
    const keys = new Set(stacks.map(stackKey));
    for (const key of this.dryRuns.keys()) if (!keys.has(key)) this.dryRuns.delete(key);
    const fresh = stacks.filter((s) => !this.entry(stackKey(s)));
    this.store.update((state) => ({
      ...state,
      stacks: stacks.map((s) => {
        const old = state.stacks.find((e) => e.key === stackKey(s));
        return old ? { ...old, stack: s } : newStackEntry(s);
      }),
    }));
    this.tell({ type: 'STACKS', keys: [...keys] });
    if (!fresh.length) return;
    this.log('info', `new stack${fresh.length > 1 ? 's' : ''}: ${fresh.map(stackKey).join(', ')}`);
    this.compile(fresh.map(stackKey));
  }

  // ---- planning -------------------------------------------------------------------------

  /** Plans the stack again (now, or after the plan in flight). */
  plan(key: string): void {
    this.tell({ type: 'PLAN', keys: [key] });
  }

  private planOf(key: string, spec: Spec): Promise<ChangeSet> {
    let dryRuns = this.dryRuns.get(key);
    if (!dryRuns) this.dryRuns.set(key, (dryRuns = new DryRunMemo()));
    return planChanges({
      stack: this.stackOf(key),
      spec,
      clusters: this.clusters,
      backend: this.options.backend,
      dryRuns,
    });
  }

  private planned(key: string, changeSet: ChangeSet): void {
    const entry = this.entry(key);
    if (!entry) return;
    const live = new Map<string, LiveStatus>(
      changeSet.changes.map((c) => [liveKey(c.cluster, c.id), plannedLiveStatus(c)]),
    );
    const before = entry.live;
    this.store.update((s) =>
      withStack(s, key, (e) => ({ ...e, planning: false, plan: { state: 'ok' }, changeSet, live })),
    );
    // drift is reported once, by whichever sees it first: this plan or the watch
    for (const c of changeSet.changes) {
      if (c.decision.drift && !before.get(liveKey(c.cluster, c.id))?.drift)
        this.log('warn', `drift: ${driftText(key, c.id, c.cluster, !c.live, c.decision.driftFields)}`);
    }
    this.liveIndex = liveIndexOf(this.store.get().stacks);
    this.lockWatch?.track(
      key,
      [...changeSet.states.keys()].map((c) => keyFor(entry.stack, c)),
    );
    for (const c of changeSet.changes) {
      const attrs = c.resource?.attributes ?? c.prior?.attributes;
      if (attrs) this.liveWatch?.ensure(c.cluster, String(attrs.apiVersion), String(attrs.kind));
    }
  }

  private planFailed(key: string, message: string): void {
    this.store.update((s) => withStack(s, key, (x) => ({ ...x, planning: false, plan: { state: 'error', message } })));
    this.log('error', `${key}: cannot compare with the cluster: ${message}`);
  }

  // ---- the clusters' watch --------------------------------------------------------------

  private onLive(events: LiveEvent[]): void {
    const outcome = withLiveEvents(this.store.get(), events, this.liveIndex);
    this.store.update(() => outcome.state);
    for (const text of outcome.drifted) this.log('warn', `drift: ${text}`);
    // each stack plans again once its drift has been quiet for a while
    if (outcome.replan.size) this.tell({ type: 'DRIFT', keys: [...outcome.replan] });
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
    this.tell({
      type: 'PLAN',
      keys: this.store
        .get()
        .stacks.filter((s) => !s.stack.cluster)
        .map((s) => s.key),
    });
  }

  /** `:recover RUNBOOK hosts=...`: the runbook's plan, shown in the Recovery view. */
  planRecovery(runbook: string, args: string[]): Promise<void> {
    return this.recovery.plan(runbook, args);
  }

  openSavedRun(runId: string): void {
    this.recovery.openSaved(runId);
  }

  rehearseRecovery(): Promise<void> {
    return this.recovery.rehearse();
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
    // what is in flight answers no one
    this.engine.stop();
    this.liveWatch?.close();
    this.objects.stop();
    this.lockWatch?.close();
    await this.fileWatch?.close();
    await this.operations.stopAll();
    await this.podTools.close();
    await this.recovery.close();
    await this.options.compiler.close();
  }
}
