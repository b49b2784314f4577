/**
 * The console's per-object actions: a rollout restart of a workload (the patch `kubectl rollout
 * restart` sends: a new spec.template.metadata.annotations["kubectl.kubernetes.io/restartedAt"],
 * so the controller rolls every pod), a scale to a replica count, and deleting a pod (its
 * controller makes a new one). What each asks before it runs follows the confirmation policy of
 * apply and destroy: the context's name typed when it is production, y/N otherwise.
 */
import { approvalFor, typedText } from '../policy/confirmation.js';
import type { Confirmation } from './confirmation.js';
import { RESTARTABLE, SCALABLE, type SelectedObject } from './selected-object.js';
import { kubectlCommand, kubectlName } from '../pods/target.js';
import type { ConsoleState } from './state.js';

export type ObjectAction = 'restart' | 'scale' | 'delete';

export interface ObjectActionRequest {
  action: ObjectAction;
  of: SelectedObject;
  /** For a scale: the replicas wanted. */
  replicas?: number;
}

/** The merge patch of a rollout restart at `at` (what kubectl sends). */
export function restartPatch(at: Date): Record<string, unknown> {
  return {
    spec: {
      template: {
        metadata: { annotations: { 'kubectl.kubernetes.io/restartedAt': at.toISOString().replace(/\.\d+Z$/, 'Z') } },
      },
    },
  };
}

/** The merge patch of a scale to `replicas`. */
export const scalePatch = (replicas: number): Record<string, unknown> => ({ spec: { replicas } });

/** The kubectl arguments of an action. */
export function actionArgs(r: ObjectActionRequest): string[] {
  switch (r.action) {
    case 'restart':
      return ['rollout', 'restart', kubectlName(r.of)];
    case 'scale':
      return ['scale', kubectlName(r.of), `--replicas=${r.replicas ?? '?'}`];
    case 'delete':
      return ['delete', kubectlName(r.of)];
  }
}

/** Why the action does not apply to the object, if it does not. */
export function actionRefusal(r: ObjectActionRequest): string | undefined {
  const what = `${r.of.kind} ${r.of.name}`;
  switch (r.action) {
    case 'restart':
      return RESTARTABLE.has(r.of.kind)
        ? undefined
        : `${what} cannot be restarted: a rollout restart takes a Deployment, StatefulSet or DaemonSet`;
    case 'scale':
      if (!SCALABLE.has(r.of.kind))
        return `${what} cannot be scaled: scale takes a Deployment, StatefulSet or ReplicaSet`;
      if (r.replicas === undefined || !Number.isInteger(r.replicas) || r.replicas < 0)
        return `scale needs a whole number of replicas, 0 or more (:scale 3)`;
      return undefined;
    case 'delete':
      return r.of.kind === 'Pod'
        ? undefined
        : `only a pod is deleted from here (${what} is not one); kdeck destroy removes a stack`;
  }
}

const VERB: Record<ObjectAction, string> = { restart: 'Restart', scale: 'Scale', delete: 'Delete' };

/** What the console asks before the action, or why it refuses it. */
export function objectConfirmation(
  r: ObjectActionRequest,
  state: Pick<ConsoleState, 'production'>,
  kubeconfigFiles: readonly string[],
): Confirmation | { refused: string } {
  const refusal = actionRefusal(r);
  if (refusal) return { refused: refusal };
  const approval = approvalFor([r.of.cluster], state.production);
  const where = `${r.of.namespace ? `namespace ${r.of.namespace} on ` : ''}${r.of.cluster}${approval.production.length ? ' (prod)' : ''}`;
  const what = {
    restart: `rolls every pod of ${kubectlName(r.of)} anew, as its update strategy allows`,
    scale: `sets ${kubectlName(r.of)} to ${r.replicas} replica${r.replicas === 1 ? '' : 's'} (an apply of its stack sets the planned count again)`,
    delete: `deletes ${kubectlName(r.of)}; its controller, if it has one, makes a new one`,
  }[r.action];
  return {
    action: r.action,
    subject: `${kubectlName(r.of)}`,
    summary: [`in ${where}`, what, `the same as: ${kubectlCommand(kubeconfigFiles, r.of, actionArgs(r))}`],
    approval,
    ...(approval.production.length ? { typed: typedText(approval) } : {}),
    object: r,
  };
}

/** The word for the confirmation's title. */
export const actionVerb = (a: ObjectAction): string => VERB[a];
