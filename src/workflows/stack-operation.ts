/**
 * An apply or destroy of one stack, as both front ends run it: the operation machine wired to
 * the plan and the engine for that stack, and the locks taken on every cluster the stack uses
 * or used before planning, so that the plan is made on a state nobody else is changing.
 */
import type { ClusterSet } from '../cluster/cluster-set.js';
import { clusterOf, type Spec } from '../model/resource.js';
import type { Stack } from '../konfig/workspace.js';
import type { Lock, StateBackend } from '../state/backend.js';
import { operatorName, thisProcess } from '../state/holder.js';
import { executeChanges } from './execute.js';
import { operationMachine } from './operation-machine.js';
import { keyFor, planChanges, type Clusters } from './plan.js';
import { watchedHealth } from '../health/watched-health.js';

export type Operation = 'apply' | 'destroy';

export interface StackOperationInput {
  stack: Stack;
  /** The Spec to apply (or, for a destroy, the one whose clusters are locked). */
  spec: Spec;
  clusters: Clusters;
  clusterSet: ClusterSet;
  backend: StateBackend;
  operation: Operation;
  /** API calls in flight at most, for the plan's reads and dry runs and for the apply. */
  concurrency: number;
  timeoutMs: number;
  /** How long a stuck pod is given, from its creation, before its workload fails (default 30 s). */
  healthGraceMs?: number;
  ignoreFields?: string[];
  failFast?: boolean;
  forceConflicts?: boolean;
  /** Follow each applied resource's health until Healthy (apply --watch, and always in the console). */
  followHealth: boolean;
  /** Told once the engine starts, before the first resource. */
  onStart?: () => void;
}

/** The operation machine for one stack; it plans when started and waits for APPROVE. */
export function stackOperationMachine(input: StackOperationInput) {
  const { stack, spec, clusters, backend, operation } = input;
  const operator = operatorName();
  return operationMachine({
    compile: async () => spec,
    plan: (s) =>
      planChanges({
        stack,
        spec: s,
        clusters,
        backend,
        ignoreFields: input.ignoreFields,
        destroy: operation === 'destroy',
        concurrency: input.concurrency,
      }),
    execute: async (changeSet, emit, signal) => {
      input.onStart?.();
      // one set of watches for the whole run, closed with it
      const health = operation === 'apply' && input.followHealth ? watchedHealth(input.clusterSet) : undefined;
      try {
        return await executeChanges(
          {
            stack,
            changeSet,
            clusters,
            backend,
            operation,
            operator,
            concurrency: input.concurrency,
            failFast: input.failFast,
            forceConflicts: input.forceConflicts,
            timeoutMs: input.timeoutMs,
            ...(input.healthGraceMs !== undefined ? { healthGraceMs: input.healthGraceMs } : {}),
            followHealth: health?.follow,
            signal,
          },
          emit,
        );
      } finally {
        health?.close();
      }
    },
  });
}

/** Locks the state of every cluster the stack uses or used, in a fixed order. */
export async function lockStack(
  backend: StateBackend,
  clusters: Clusters,
  stack: Stack,
  spec: Spec,
  operation: Operation,
): Promise<Lock[]> {
  const names = new Set(spec.resources.map((r) => clusters.resolve(clusterOf(r, stack.cluster))));
  for (const k of await backend.list())
    if (k.project === stack.project.name && k.stack === stack.name) names.add(k.cluster);
  const locks: Lock[] = [];
  try {
    for (const cluster of [...names].sort())
      locks.push(await backend.lock(keyFor(stack, cluster), thisProcess(operation, new Date().toISOString())));
  } catch (e) {
    await releaseAll(locks);
    throw e;
  }
  return locks;
}

/** Releases locks in the reverse of the order they were taken. */
export async function releaseAll(locks: Lock[]): Promise<void> {
  for (const l of [...locks].reverse()) await l.release();
}
