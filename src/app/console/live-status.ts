/**
 * What a live object says about a planned resource: its health by the readiness rules, and
 * whether it drifted from what kdeck last applied (compared on the fields kdeck set). Pure.
 */
import type { KubeObject } from '../../model/kube-object.js';
import { driftOf } from '../../diff/actions.js';
import type { ResourceChange } from '../../diff/change-set.js';
import type { FieldChange } from '../../diff/fields.js';
import { assess } from '../../health/rules.js';
import type { LiveStatus } from './state.js';

/** As the plan found it. */
export function plannedLiveStatus(c: ResourceChange): LiveStatus {
  return {
    ...(c.live ? { health: assess(c.live) } : {}),
    drift: c.decision.drift,
    ...(!c.live && c.prior ? { deleted: true } : {}),
  };
}

export interface LiveUpdate {
  status: LiveStatus;
  /** The fields that drifted, when the object drifted. */
  driftFields: FieldChange[];
}

/** After a watch event: `object` is the new live object, or undefined when it was deleted. */
export function liveStatusAfter(c: ResourceChange, object: KubeObject | undefined): LiveUpdate {
  if (!object) return { status: { drift: c.prior !== undefined, deleted: true }, driftFields: [] };
  const driftFields = c.prior ? driftOf(c.prior.attributes, object, [], false) : [];
  return { status: { health: assess(object), drift: driftFields.length > 0 }, driftFields };
}
