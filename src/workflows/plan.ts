/**
 * Preview: what an apply of a stack's Spec would do, resource by resource, on every cluster it
 * targets. Each resource is compared three ways (state, Spec, live) on the server's dry run of
 * its server-side apply; resources the state holds but the Spec no longer has are deleted.
 */
import { graphOf, referenceGraphOf, ResourceGraph } from '../graph/graph.js';
import { referencesIn } from '../graph/references.js';
import { resolveReferences } from '../graph/resolve.js';
import { clusterOf, type Attributes, type Spec } from '../model/resource.js';
import type { Stack } from '../konfig/workspace.js';
import type { ApplyOptions } from '../cluster/objects.js';
import type { KubeObject, ObjectRef } from '../model/kube-object.js';
import { refOf } from '../model/kube-object.js';
import { ApiError } from '../cluster/rest.js';
import { errorMessage } from '../diagnostics/user-error.js';
import { decide } from '../diff/actions.js';
import type { StateBackend } from '../state/backend.js';
import type { State, StateKey, StateResource } from '../state/model.js';
import { changeKey, type ChangeSet, type ResourceChange } from '../diff/change-set.js';
import type { DryRunMemo } from './dry-run-memo.js';
import { Slots } from './slots.js';
import { walkGraph } from './walk.js';

/** What the engine needs of a cluster: ObjectClient, or a scripted double in tests. */
export interface ClusterPort {
  readonly cluster: string;
  get(ref: ObjectRef): Promise<KubeObject | undefined>;
  apply(o: KubeObject, options?: ApplyOptions): Promise<KubeObject>;
  delete(ref: ObjectRef, propagationPolicy?: 'Foreground' | 'Background' | 'Orphan'): Promise<boolean>;
  waitGone(ref: ObjectRef, timeoutMs: number): Promise<void>;
  /** The objects of a kind in a namespace (or cluster-wide): the plan reads a group of them in one call. */
  list?(ref: Omit<ObjectRef, 'name'>): Promise<{ items: KubeObject[] }>;
}

export interface Clusters {
  /** The context name a stack or resource cluster stands for (the current one when undefined). */
  resolve(context: string | undefined): string;
  client(context: string): ClusterPort;
}

export interface PlanInput {
  stack: Stack;
  spec: Spec;
  clusters: Clusters;
  backend: StateBackend;
  ignoreFields?: string[];
  showSecrets?: boolean;
  /** Plan a destroy: every resource in the state goes. */
  destroy?: boolean;
  /**
   * Calls in flight at once (lists, reads, dry runs); an apply passes its own limit, so the plan
   * goes at the pace the apply will.
   */
  concurrency?: number;
  /** Dry runs kept from this stack's earlier plans (the console's); without it every one is asked. */
  dryRuns?: DryRunMemo;
}

/** Calls in flight at once when the caller gives no limit: the calls are independent reads and dry runs. */
const PLAN_CONCURRENCY = 16;

/** A call to a cluster, made when the plan's limit lets it. */
type Call = <T>(task: () => Promise<T>) => Promise<T>;

/** Resources of one kind in one namespace from which the plan lists them instead of reading each. */
const LIST_FROM = 3;

/**
 * The live objects of a plan's resources: one LIST per (cluster, kind, namespace) that holds
 * several of them, a GET for the others, and a GET when a LIST is refused (RBAC may allow one and
 * not the other). A stack of hundreds of objects in a few namespaces is read in a few calls.
 */
function liveReader(clusters: Clusters, resources: { cluster: string; ref: ObjectRef }[], call: Call) {
  const groupOf = (cluster: string, r: ObjectRef) => [cluster, r.apiVersion, r.kind, r.namespace ?? ''].join('\u0000');
  const sizes = new Map<string, number>();
  for (const { cluster, ref } of resources)
    sizes.set(groupOf(cluster, ref), (sizes.get(groupOf(cluster, ref)) ?? 0) + 1);
  const lists = new Map<string, Promise<Map<string, KubeObject> | undefined>>();
  const list = (read: NonNullable<ClusterPort['list']>, ref: ObjectRef) =>
    call(() => read({ apiVersion: ref.apiVersion, kind: ref.kind, namespace: ref.namespace })).then(
      ({ items }) => new Map(items.map((o) => [String(o.metadata?.name), o])),
      (e: unknown) =>
        // a kind the cluster does not serve yet (its CRD is in this stack) has no objects, as a GET would say
        e instanceof ApiError && e.status === 404 ? new Map<string, KubeObject>() : undefined,
    );
  // every list is asked for at once (within the limit): what the cluster holds does not depend on
  // the order the plan compares in, so the kinds a stack's dependencies put last are not read last
  for (const { cluster, ref } of resources) {
    const client = clusters.client(cluster);
    const group = groupOf(cluster, ref);
    if (client.list && sizes.get(group)! >= LIST_FROM && !lists.has(group))
      lists.set(group, list(client.list.bind(client), ref));
  }
  return async (cluster: string, ref: ObjectRef): Promise<KubeObject | undefined> => {
    const listed = lists.get(groupOf(cluster, ref));
    const byName = await listed;
    return byName ? structuredClone(byName.get(ref.name)) : call(() => clusters.client(cluster).get(ref));
  };
}

export const keyFor = (stack: Stack, cluster: string): StateKey => ({
  project: stack.project.name,
  stack: stack.name,
  cluster,
});

export async function planChanges(input: PlanInput): Promise<ChangeSet> {
  const { stack, spec, clusters, backend } = input;
  const limit = input.concurrency ?? PLAN_CONCURRENCY;
  const resources = input.destroy ? [] : spec.resources;
  const clusterOfId = new Map(resources.map((r) => [r.id, clusters.resolve(clusterOf(r, stack.cluster))]));
  // the clusters this stack was applied to before count too: what is left there is deleted
  const keys = (await backend.list()).filter((k) => k.project === stack.project.name && k.stack === stack.name);
  const clusterNames = [...new Set([...clusterOfId.values(), ...keys.map((k) => k.cluster)])].sort();
  const states = new Map<string, State | undefined>();
  for (const c of clusterNames) states.set(c, await backend.read(keyFor(stack, c)));

  const graph = graphOf({ resources });
  const byId = new Map(resources.map((r) => [r.id, r]));
  /** What references resolve against during the preview: live objects, else their dry runs. */
  const known = new Map<string, unknown>();
  const priorOf = new Map(
    [...states].flatMap(([cluster, state]) =>
      (state?.resources ?? []).map((r) => [changeKey({ cluster, id: r.id }), r] as const),
    ),
  );
  // the plan's calls share one limit; once one comparison fails, the calls still waiting for a
  // slot are not made: a cluster that is down is reported after the calls in flight, not after all
  const slots = new Slots(limit);
  let stopped = false;
  const call: Call = (task) => slots.run(() => (stopped ? Promise.reject(new Error('the plan stopped')) : task()));
  input.dryRuns?.retain(new Set(resources.map((r) => changeKey({ cluster: clusterOfId.get(r.id)!, id: r.id }))));
  const readLive = liveReader(
    clusters,
    resources.map((r) => ({ cluster: clusterOfId.get(r.id)!, ref: refOf(r.attributes as KubeObject) })),
    call,
  );
  const planOne = async (id: string): Promise<ResourceChange> => {
    const resource = byId.get(id)!;
    const cluster = clusterOfId.get(id)!;
    const client = clusters.client(cluster);
    const key = changeKey({ cluster, id });
    const prior = priorOf.get(key);
    // its references point at other resources, compared before it (a resource pointing at
    // itself is resolved once its own live object is read)
    const early = referencesIn(resource.attributes).some((r) => r.target === id)
      ? undefined
      : resolveReferences(resource.attributes, (target) => known.get(target));
    // a resource applied before is most likely live: its dry run goes out with the read, one
    // round trip instead of two, unless the memo holds the answer (its failure: asked again below)
    const speculative =
      prior && early && early.unresolved.length === 0 && !input.dryRuns?.holds(key, early.value as KubeObject)
        ? call(() => client.apply(early.value as KubeObject, { dryRun: true })).catch(() => undefined)
        : undefined;
    const live = await readLive(cluster, refOf(resource.attributes as KubeObject));
    if (live) known.set(id, live);
    const { value: resolved, unresolved } =
      early ?? resolveReferences(resource.attributes, (target) => known.get(target));
    let dryRun: KubeObject | undefined;
    let dryRunError: string | undefined;
    let conflict: string | undefined;
    // a create is not dry-run: its namespace (or CRD) may itself be about to be created
    if (live && unresolved.length === 0) {
      const sent = resolved as KubeObject;
      const ask = async () => {
        const answer = await speculative;
        // the early answer holds only if the server made it on the object just read
        return answer && answer.metadata?.resourceVersion === live.metadata?.resourceVersion
          ? answer
          : call(() => client.apply(sent, { dryRun: true }));
      };
      try {
        dryRun = await (input.dryRuns ? input.dryRuns.answer(key, sent, live, ask) : ask());
      } catch (e) {
        if (e instanceof ApiError && e.status === 409) {
          // another manager (kubectl scale, an operator) took fields over: show what taking them back does
          conflict = e.detail;
          dryRun = await call(() => client.apply(sent, { dryRun: true, force: true })).catch(() => undefined);
        } else dryRunError = errorMessage(e);
      }
      if (dryRun) known.set(id, dryRun);
    }
    const decision = decide({
      prior: prior?.attributes,
      plan: resolved as Attributes,
      live,
      dryRun,
      ignoreFields: input.ignoreFields,
      showSecrets: input.showSecrets,
    });
    if (dryRunError)
      decision.note = `the server refused the dry run (${dryRunError}); compared the fields the plan sets`;
    if (conflict)
      decision.note = `${decision.note ? `${decision.note}; ` : ''}fields now owned by another manager (${conflict}): apply needs --force-conflicts to take them back`;
    return {
      id,
      cluster,
      action: decision.action,
      decision,
      resource,
      prior,
      live,
      dryRun,
      unresolved,
      ...(dryRunError ? { dryRunError } : {}),
      ...(conflict ? { conflict } : {}),
    };
  };
  // a resource whose fields point at another's is compared once that one is, so the reference
  // resolves against what its comparison found; the others all at once, as the limit allows: a
  // dependency written in dependsOn gives the comparison nothing to wait for
  const planned = new Map<string, ResourceChange>();
  let failure: { error: unknown } | undefined;
  await walkGraph(
    referenceGraphOf({ resources }),
    new Set(graph.ids),
    async (id) => {
      try {
        planned.set(id, await planOne(id));
        return 'succeeded';
      } catch (error) {
        failure ??= { error };
        stopped = true;
        return 'failed';
      }
    },
    // the calls are bounded by the slots, not the comparisons waiting for them
    { concurrency: Infinity, failFast: true },
  );
  if (failure) throw failure.error;
  const changes: ResourceChange[] = graph.order().map((id) => planned.get(id)!);

  // deletes: what the state holds and the Spec no longer has (on that cluster), dependents first;
  // keyed by (cluster, id), since a stack moved to another cluster leaves its ids behind on the old one
  const leaving = new Map<string, { resource: StateResource; cluster: string }>();
  for (const [cluster, state] of states) {
    for (const r of state?.resources ?? []) {
      if (!(byId.has(r.id) && clusterOfId.get(r.id) === cluster))
        leaving.set(changeKey({ cluster, id: r.id }), { resource: r, cluster });
    }
  }
  const deletions = new ResourceGraph(
    leaving.keys(),
    [...leaving.values()].flatMap(({ resource, cluster }) =>
      (resource.dependsOn ?? [])
        .map((d) => changeKey({ cluster, id: d }))
        .filter((d) => leaving.has(d))
        .map((d) => ({ from: d, to: changeKey({ cluster, id: resource.id }), kind: 'explicit' as const })),
    ),
  );
  // an object another stack on the same cluster also applied (a shared CRD, a shared namespace)
  // is only forgotten by this stack: deleting it would break the other one
  const others = leaving.size ? await otherStacksOn(backend, stack) : new Map<string, string[]>();
  const planDelete = async (key: string): Promise<ResourceChange> => {
    const { resource: prior, cluster } = leaving.get(key)!;
    const id = prior.id;
    const live = await call(() => clusters.client(cluster).get(refOf(prior.attributes as KubeObject)));
    const decision = decide({ prior: prior.attributes, live });
    const sharedWith = others.get(changeKey({ cluster, id }));
    if (sharedWith)
      decision.note = `also applied by ${sharedWith.join(', ')}: kept in the cluster, only forgotten by this stack`;
    return {
      id,
      cluster,
      action: decision.action,
      decision,
      prior,
      live,
      unresolved: [],
      ...(sharedWith ? { sharedWith } : {}),
    };
  };
  changes.push(...(await Promise.all(deletions.reversed().order().map(planDelete))));
  return { project: stack.project.name, stack: stack.name, changes, graph, deletions, states };
}

/** For every (cluster, id) the states of other stacks hold: those stacks, as project/stack. */
async function otherStacksOn(backend: StateBackend, stack: Stack): Promise<Map<string, string[]>> {
  const found = new Map<string, string[]>();
  for (const key of await backend.list()) {
    if (key.project === stack.project.name && key.stack === stack.name) continue;
    for (const r of (await backend.read(key))?.resources ?? []) {
      const k = changeKey({ cluster: key.cluster, id: r.id });
      found.set(k, [...(found.get(k) ?? []), `${key.project}/${key.stack}`]);
    }
  }
  return found;
}
