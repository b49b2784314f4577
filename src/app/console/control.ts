/**
 * What the screen may ask of the console's session. ConsoleSession implements it over real
 * clusters; screen tests and golden frames implement it over a fixed state.
 */
import type { Operation } from '../../workflows/stack-operation.js';
import type { PodTools } from '../pods/pod-tools.js';
import type { Confirmation } from './confirmation.js';
import type { ObjectControl } from './objects.js';
import type { RecoveryCommand } from './recovery.js';
import type { ConsoleState, EventLevel, Store } from './state.js';

export interface ConsoleControl {
  readonly store: Store<ConsoleState>;
  /** Logs, shells and port-forwards of the pods of a stack's workloads. */
  readonly podTools: PodTools;
  /** Per-object views (pods, describe, YAML) and actions (restart, scale, delete a pod). */
  readonly objects: ObjectControl;
  /**
   * Starts an apply or destroy the operator confirmed; rejects with a sentence when it cannot,
   * or when its plan, made again under the stack's lock, needs more than was confirmed.
   */
  startOperation(stack: string, operation: Operation, confirmed: Confirmation): Promise<void>;
  /** Stops the stack's running operation; false when none runs. */
  interrupt(stack: string): boolean;
  /** Compiles the stack again (and plans it). */
  refresh(stack: string): void;
  /** The context for stacks that name none; throws a sentence for an unknown one. */
  setContext(name: string): void;
  planRecovery(runbook: string, args: string[]): Promise<void>;
  /** `:resume RUN_ID`: shows a run saved under .kdeck/runs, for runRecovery to carry on; throws a sentence while another runs. */
  openSavedRun(runId: string): void;
  /**
   * Rehearses the planned recovery on an embedded copy of its clusters (reads only); rejects with
   * a sentence when there is no plan, and records a failed rehearsal in the plan's entry.
   */
  rehearseRecovery(): Promise<void>;
  /** Runs the planned recovery, or carries the saved run on (confirmed by the operator); rejects with a sentence when it cannot. */
  runRecovery(): Promise<void>;
  /** Pause, resume, abort, or answer a cluster paused on a failure; false when no run listens. */
  steerRecovery(command: RecoveryCommand): boolean;
  /** The stack on screen, which compiles first. */
  focus(stack: string): void;
  log(level: EventLevel, text: string): void;
}
