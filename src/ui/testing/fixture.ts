/**
 * A console with a fixed state for screen tests and golden frames: a few projects whose
 * stacks show every badge (unchanged, changes, drift, unhealthy, error, compiling), a prod
 * stack with creates, updates, drift, a Secret and a reference, and a control that records
 * what the screen asks and runs a scripted apply and a scripted recovery through the real
 * operation and recovery machines.
 */
import { ProductionPolicy } from '../../app/policy/production.js';
import { createActor } from 'xstate';
import type { ChangeSet, ResourceChange } from '../../diff/change-set.js';
import { decide } from '../../diff/actions.js';
import { graphOf, ResourceGraph } from '../../graph/graph.js';
import type { Health } from '../../health/rules.js';
import type { Attributes, Resource, Spec } from '../../model/resource.js';
import type { Stack } from '../../konfig/workspace.js';
import { planRecovery, type RecoveryPlan } from '../../recovery/plan.js';
import { UserError } from '../../diagnostics/user-error.js';
import type { EngineEvent } from '../../workflows/execute.js';
import { operationMachine } from '../../workflows/operation-machine.js';
import { StepError, type RecoverySteps, type RunPlan, type TargetOutcome } from '../../workflows/recovery/model.js';
import { runMachine } from '../../workflows/recovery/run-machine.js';
import type { Operation } from '../../workflows/stack-operation.js';
import type { ConsoleControl } from '../../app/console/control.js';
import { FixturePodTools } from './pod-fixture.js';
import type { PodTools } from '../../app/pods/pod-tools.js';
import type { RecoveryCommand } from '../../app/console/recovery.js';
import {
  liveKey,
  newStackEntry,
  Store,
  type ConsoleEvent,
  type ConsoleState,
  type EventLevel,
  type LiveStatus,
  type StackEntry,
} from '../../app/console/state.js';

import { T0 } from './clock.js';
import { fixtureRehearsal } from './rehearsal-fixture.js';
import { FixtureObjectSource, fixtureObjects } from './objects-fixture.js';

export { T0 };
const ROOT = '/work/konfig-sample';
export const LONG_IMAGE = 'docker.io/nginxinc/nginx-unprivileged';

export function stack(project: string, name: string, cluster?: string): Stack {
  const dir = `${ROOT}/appops/${project}/${name}`;
  return {
    name,
    dir,
    path: `appops/${project}/${name}`,
    project: { name: project, dir: `${ROOT}/appops/${project}` },
    ...(cluster ? { cluster } : {}),
  };
}

const meta = (kind: string, name: string, namespace?: string) => ({
  apiVersion: kind === 'Deployment' ? 'apps/v1' : 'v1',
  kind,
  metadata: { name, ...(namespace ? { namespace } : {}) },
});

export function resource(attributes: Attributes, dependsOn: string[] = []): Resource {
  const m = attributes.metadata as { name: string; namespace?: string };
  const id = m.namespace
    ? `${attributes.apiVersion}:${attributes.kind}:${m.namespace}:${m.name}`
    : `${attributes.apiVersion}:${attributes.kind}:${m.name}`;
  return { id, type: 'Kubernetes', attributes, ...(dependsOn.length ? { dependsOn } : {}) };
}

export function deployment(ns: string, name: string, image: string, replicas: number): Attributes {
  return {
    ...meta('Deployment', name, ns),
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: {
          containers: [
            {
              name,
              image,
              env: [{ name: 'REDIS_HOST', value: '${ref:v1:Service:guestbook:redis-leader#/spec/clusterIP}' }],
            },
          ],
        },
      },
    },
  };
}

/** The guestbook prod stack: Namespace, ConfigMap, Secret, Service, two Deployments. */
export function guestbookSpec(image = 'gb-frontend:v5'): Spec {
  const ns = resource(meta('Namespace', 'guestbook'));
  const conf = resource({ ...meta('ConfigMap', 'redis-conf', 'guestbook'), data: { 'redis.conf': 'maxmemory 64mb' } }, [
    ns.id,
  ]);
  const secret = resource(
    { ...meta('Secret', 'redis-auth', 'guestbook'), type: 'Opaque', stringData: { password: 'hunter2-new' } },
    [ns.id],
  );
  const svc = resource(
    {
      ...meta('Service', 'redis-leader', 'guestbook'),
      spec: { selector: { app: 'redis-leader' }, ports: [{ port: 6379 }] },
    },
    [ns.id],
  );
  const leader = resource(deployment('guestbook', 'redis-leader', 'redis:7.2', 1), [ns.id, conf.id, secret.id]);
  const frontend = resource(deployment('guestbook', 'frontend', image, 3), [ns.id]);
  return { resources: [ns, conf, secret, svc, leader, frontend].sort((a, b) => (a.id < b.id ? -1 : 1)) };
}

export interface Side {
  prior?: Attributes;
  live?: Attributes;
}

function changeSetOf(s: Stack, spec: Spec, cluster: string, sides: (r: Resource) => Side): ChangeSet {
  const graph = graphOf(spec);
  const changes: ResourceChange[] = graph.order().map((id) => {
    const r = spec.resources.find((x) => x.id === id)!;
    const { prior, live } = sides(r);
    const decision = decide({ prior, plan: r.attributes, live });
    return {
      id,
      cluster,
      action: decision.action,
      decision,
      resource: r,
      ...(prior ? { prior: { ...r, attributes: prior } } : {}),
      ...(live ? { live } : {}),
      unresolved: [],
    };
  });
  return {
    project: s.project.name,
    stack: s.name,
    changes,
    graph,
    deletions: new ResourceGraph([], []),
    states: new Map(),
  };
}

const healthy: Health = { state: 'Healthy', message: 'ready' };
const liveOf = (
  cs: ChangeSet,
  health: (c: ResourceChange) => Health | undefined = (c) => (c.live ? healthy : undefined),
) =>
  new Map<string, LiveStatus>(
    cs.changes.map((c) => [
      liveKey(c.cluster, c.id),
      { ...(health(c) ? { health: health(c) } : {}), drift: c.decision.drift },
    ]),
  );

export function planned(
  s: Stack,
  spec: Spec,
  cluster: string,
  sides: (r: Resource) => Side,
  health?: (c: ResourceChange) => Health | undefined,
): StackEntry {
  const changeSet = changeSetOf(s, spec, cluster, sides);
  return {
    ...newStackEntry(s),
    compile: { state: 'ok', ms: 38 },
    spec,
    graph: changeSet.graph,
    plan: { state: 'ok' },
    changeSet,
    live: liveOf(changeSet, health),
  };
}

export function fixtureState(): ConsoleState {
  const prod = stack('guestbook', 'prod', 'sandbox-b');
  const spec = guestbookSpec();
  const prodEntry = planned(prod, spec, 'sandbox-b', (r) => {
    if (r.id === 'apps/v1:Deployment:guestbook:frontend') {
      const prior = deployment('guestbook', 'frontend', 'gb-frontend:v4', 3);
      // scaled by hand behind kdeck's back: drift
      return { prior, live: { ...prior, spec: { ...(prior.spec as Attributes), replicas: 5 } } };
    }
    if (r.id === 'v1:Secret:guestbook:redis-auth') {
      const prior = { ...r.attributes, stringData: { password: 'hunter2' } };
      return { prior, live: prior };
    }
    if (r.id === 'v1:Service:guestbook:redis-leader') return {};
    return { prior: r.attributes, live: r.attributes };
  });
  const dev = stack('guestbook', 'dev');
  // a long image whose tag alone changes: the Diff view must show both tags at any width
  const devSpec = guestbookSpec(`${LONG_IMAGE}:1.27`);
  const stagingSpec = guestbookSpec('gb-frontend:v6');
  const staging = stack('guestbook', 'staging');
  const stagingEntry: StackEntry = {
    ...planned(staging, stagingSpec, 'sandbox-a', (r) => ({ prior: r.attributes, live: r.attributes })),
    compile: {
      state: 'error',
      ms: 12,
      failure: {
        summary: 'main.k:12:5 expected int, got str(3)',
        text: 'error[E2G22]: TypeError\n  --> /work/konfig-sample/appops/guestbook/staging/main.k:12:5\n   |\n12 |     replicas = "3"\n   |     ^ expected int, got str(3)\n   |\n',
      },
    },
  };
  const batch = stack('batch-report', 'dev');
  const batchSpec: Spec = { resources: [resource(meta('Namespace', 'batch-report'))] };
  const stacks: StackEntry[] = [
    planned(stack('batch-report', 'prod'), batchSpec, 'sandbox-a', (r) => ({
      prior: r.attributes,
      live: r.attributes,
    })),
    planned(
      batch,
      batchSpec,
      'sandbox-a',
      (r) => ({ prior: r.attributes, live: r.attributes }),
      () => ({
        state: 'Degraded',
        reason: 'CrashLoopBackOff',
        message: 'pod report-x: container report CrashLoopBackOff',
      }),
    ),
    planned(dev, devSpec, 'sandbox-a', (r) => {
      if (r.id !== 'apps/v1:Deployment:guestbook:frontend') return { prior: r.attributes, live: r.attributes };
      const before = deployment('guestbook', 'frontend', `${LONG_IMAGE}:1.25`, 3);
      return { prior: before, live: before };
    }),
    prodEntry,
    stagingEntry,
    planned(stack('http-echo', 'dev'), guestbookSpec(), 'sandbox-a', () => ({})),
    newStackEntry(stack('http-echo', 'prod')),
  ];
  stacks.sort((a, b) => (a.key < b.key ? -1 : 1));
  const events: ConsoleEvent[] = [
    { at: T0, level: 'info', text: 'compiled 7 stacks' },
    {
      at: T0 + 4_000,
      level: 'warn',
      text: 'drift: guestbook/prod: Deployment/guestbook/frontend on sandbox-b changed (spec.replicas) outside kdeck',
    },
    { at: T0 + 9_000, level: 'info', text: 'appops/guestbook/staging/main.k changed: compiling guestbook/staging' },
    { at: T0 + 9_100, level: 'error', text: 'guestbook/staging: main.k:12:5 expected int, got str(3)' },
  ];
  return {
    root: ROOT,
    readOnly: false,
    contexts: [
      { name: 'sandbox-a', prod: false },
      { name: 'sandbox-b', prod: true },
    ],
    production: new ProductionPolicy([{ name: 'sandbox-a' }, { name: 'sandbox-b' }], ['sandbox-b']),
    context: 'sandbox-a',
    stacks,
    operations: new Map(),
    events,
    watching: true,
  };
}

/** An apply that reports progress and health for every change, then ends (or, held, waits to be stopped). */
function scriptedOperation(changeSet: ChangeSet, hold: boolean) {
  return operationMachine({
    compile: async () => ({ resources: [] }),
    plan: async () => changeSet,
    execute: async (cs, emit, signal) => {
      if (hold) {
        emit({ type: 'started', id: cs.changes[0].id, cluster: cs.changes[0].cluster, action: cs.changes[0].action });
        await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
        return {
          succeeded: [],
          failed: [],
          skipped: [],
          notStarted: cs.changes.slice(1).map(({ cluster, id }) => ({ cluster, id })),
          stopped: [],
          forgotten: [],
          unhealthy: [],
          interrupted: true,
          counts: { created: 0, updated: 0, deleted: 0 },
        };
      }
      const ids = cs.changes.filter((c) => c.action !== 'UnChanged');
      for (const [i, c] of ids.entries()) {
        const at = new Date(T0 + 60_000 + i * 1000).toISOString();
        const events: EngineEvent[] = [
          { type: 'started', id: c.id, cluster: c.cluster, action: c.action },
          { type: 'applied', id: c.id, cluster: c.cluster },
          {
            type: 'health',
            id: c.id,
            cluster: c.cluster,
            health: { state: 'Progressing', message: '1 of 3 updated replicas are available' },
            at,
          },
          {
            type: 'health',
            id: c.id,
            cluster: c.cluster,
            health: { state: 'Healthy', message: 'successfully rolled out (3/3)' },
            at,
          },
          { type: 'finished', id: c.id, cluster: c.cluster, outcome: 'succeeded' },
        ];
        for (const e of events) emit(e);
      }
      return {
        succeeded: ids.map(({ cluster, id }) => ({ cluster, id })),
        failed: [],
        skipped: [],
        notStarted: [],
        stopped: [],
        forgotten: [],
        unhealthy: [],
        interrupted: false,
        counts: { created: 1, updated: ids.length - 1, deleted: 0 },
      };
    },
  });
}

/** A recovery plan as a run carries it out (what freezePlan makes of it against clusters). */
function fixtureRecoveryPlan(): RecoveryPlan {
  const target = (cluster: string, name: string, hostname: string) => ({
    cluster,
    namespace: 'guestbook',
    kind: 'Pod',
    name,
    hostname,
    owner: { kind: 'ReplicaSet', name: 'frontend-7d9' },
  });
  const plan = planRecovery({
    name: 'app-recovery',
    action: 'delete',
    strategy: { batchSize: 2, maxUnavailable: 1, clusterConcurrency: 1, healthTimeout: '2m', onFailure: 'pause' },
    targets: [
      target('sandbox-a', 'frontend-7d9-abcde', 'a-node-1'),
      target('sandbox-a', 'frontend-7d9-fghij', 'a-node-2'),
      target('sandbox-b', 'frontend-7d9-klmno', 'b-node-1'),
    ],
    unresolved: ['c-node-9'],
  });
  // what the clusters answer: three replicas on sandbox-a, a single one on sandbox-b
  const replicas = (workload: string) =>
    workload.startsWith('sandbox-a/') ? { desired: 3, ready: 3 } : { desired: 1, ready: 1 };
  return { ...plan, blastRadius: plan.blastRadius.map((r) => ({ ...r, replicas: replicas(r.workload) })) };
}

function runPlanOf(plan: RecoveryPlan): RunPlan {
  const s = plan.runbook.strategy;
  return {
    runbook: plan.runbook.name,
    action: plan.runbook.action,
    maxUnavailable: s.maxUnavailable,
    clusterConcurrency: s.clusterConcurrency,
    healthTimeoutMs: 120_000,
    onFailure: s.onFailure,
    restartedAt: new Date(T0).toISOString(),
    batches: plan.batches.map((b) => ({ ...b, targets: b.targets.map((t) => ({ ...t, uid: `${t.name}-uid` })) })),
    unresolved: plan.runbook.unresolved,
    blastRadius: plan.blastRadius,
  };
}

export class FixtureControl implements ConsoleControl {
  readonly store: Store<ConsoleState>;
  /** The live objects the per-object views read and the object actions write. */
  readonly source = new FixtureObjectSource();
  readonly objects;
  readonly calls: string[] = [];
  private gatesHeld = true;
  private readonly waiting: (() => void)[] = [];

  constructor(
    state: ConsoleState = fixtureState(),
    /** Operations run until interrupted, instead of ending at once. */
    private readonly hold = false,
    readonly podTools: PodTools = new FixturePodTools(),
  ) {
    this.store = new Store(state);
    this.objects = fixtureObjects({ readOnly: state.readOnly, source: this.source });
  }

  async startOperation(stack: string, operation: Operation): Promise<void> {
    this.calls.push(`${operation} ${stack}`);
    const entry = this.store.get().stacks.find((s) => s.key === stack)!;
    const actor = createActor(scriptedOperation(entry.changeSet!, this.hold), { input: { autoApprove: true } });
    const record = { stack, operation, actor, startedAt: T0 + 60_000, running: true };
    this.store.update((s) => ({ ...s, operations: new Map(s.operations).set(stack, record) }));
    actor.subscribe({
      complete: () =>
        this.store.update((s) => ({
          ...s,
          operations: new Map(s.operations).set(stack, { ...record, running: false }),
        })),
    });
    actor.start();
  }

  interrupt(stack: string): boolean {
    this.calls.push(`interrupt ${stack}`);
    const op = this.store.get().operations.get(stack);
    if (!op?.running) return false;
    op.actor.send({ type: 'CANCEL' });
    return true;
  }

  refresh(stack: string): void {
    this.calls.push(`refresh ${stack}`);
  }

  setContext(name: string): void {
    if (!this.store.get().contexts.some((c) => c.name === name))
      throw new UserError(`there is no context ${name}; the contexts are sandbox-a, sandbox-b`);
    this.calls.push(`ctx ${name}`);
    this.store.update((s) => ({ ...s, context: name }));
  }

  async planRecovery(runbook: string, args: string[]): Promise<void> {
    this.calls.push(`recover ${runbook} ${args.join(' ')}`);
    this.store.update((s) => ({ ...s, recovery: { state: 'planned', runbook, args, plan: fixtureRecoveryPlan() } }));
  }

  /** A run saved by an earlier console, paused after its first batch. */
  openSavedRun(runId: string): void {
    this.calls.push(`resume ${runId}`);
    const record = {
      version: 1,
      id: runId,
      runbook: 'runbooks/AppRecovery.k',
      options: [['hosts', 'a-node-1,a-node-2,b-node-1']] as [string, string][],
      createdAt: new Date(T0).toISOString(),
      who: 'sre@laptop',
      plan: runPlanOf(fixtureRecoveryPlan()),
    };
    this.store.update((s) => ({
      ...s,
      recovery: {
        state: 'saved',
        runbook: record.runbook,
        args: ['hosts=a-node-1,a-node-2,b-node-1'],
        runId,
        record,
        last: 'paused',
      },
    }));
  }

  /** The plan on screen rehearsed: the fixture's forecast, shown beside it. */
  async rehearseRecovery(): Promise<void> {
    const entry = this.store.get().recovery;
    if (entry?.state !== 'planned') throw new UserError('there is no recovery plan to rehearse');
    this.calls.push(`rehearse ${entry.runbook}`);
    const frozen = runPlanOf(entry.plan);
    this.store.update((s) => ({
      ...s,
      recovery: { ...entry, rehearsal: { state: 'rehearsed', frozen, report: fixtureRehearsal(frozen) } },
    }));
  }

  /** Lets the held gate (sandbox-a's second batch) open. */
  openGates(): void {
    this.gatesHeld = false;
    for (const r of this.waiting.splice(0)) r();
  }

  async runRecovery(): Promise<void> {
    const entry = this.store.get().recovery;
    const plan =
      entry?.state === 'planned' ? runPlanOf(entry.plan) : entry?.state === 'saved' ? entry.record.plan : undefined;
    if (!entry || !plan) throw new UserError('there is no recovery plan to run');
    this.calls.push(`run ${plan.runbook}`);
    const actor = createActor(runMachine(this.recoverySteps(), plan), { input: { runId: 'run-1' } });
    this.store.update((s) => ({
      ...s,
      recovery: { runbook: entry.runbook, args: entry.args, state: 'running', runId: 'run-1', actor, settled: false },
    }));
    actor.subscribe((snap) => {
      const now = this.store.get().recovery;
      if (snap.matches('finished') && now?.state === 'running' && !now.settled)
        this.store.update((s) => ({ ...s, recovery: { ...now, settled: true } }));
    });
    actor.start();
    actor.send({ type: 'APPROVE' });
  }

  steerRecovery(command: RecoveryCommand): boolean {
    const entry = this.store.get().recovery;
    if (entry?.state !== 'running') return false;
    this.calls.push(command.toLowerCase());
    entry.actor.send({ type: command });
    return true;
  }

  /**
   * Steps that restart at once; sandbox-a's second batch waits at its gate until openGates(),
   * and sandbox-b's batch fails its verification once (CrashLoopBackOff).
   */
  private recoverySteps(): RecoverySteps {
    let failed = false;
    return {
      now: () => T0,
      gate: (input) =>
        input.cluster === 'sandbox-a' && input.batch.index === 2 && this.gatesHeld
          ? new Promise<void>((r) => this.waiting.push(r))
          : Promise.resolve(),
      act: async (input) => input.batch.targets.map((): TargetOutcome => 'deleted'),
      verify: async (input, report) => {
        report({
          subject: 'Deployment/frontend',
          health: { state: 'Healthy', message: 'successfully rolled out (3/3)' },
        });
        if (input.cluster === 'sandbox-b' && !failed) {
          failed = true;
          throw new StepError('CrashLoopBackOff', 'pod frontend-7d9-xyz: container php-redis CrashLoopBackOff');
        }
      },
      audit: (e) =>
        this.log(
          e.outcome.includes('fail') ? 'warn' : 'info',
          `recovery: ${[e.cluster, e.target].filter(Boolean).join('  ')}${e.cluster || e.target ? ': ' : ''}${e.action} ${e.outcome}`,
        ),
    };
  }

  focus(): void {}

  log(level: EventLevel, text: string): void {
    this.store.update((s) => ({ ...s, events: [...s.events, { at: T0, level, text }] }));
  }
}
