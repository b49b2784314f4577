/**
 * The three-way decision for one resource: prior (the state), plan (the Spec) and live (the
 * cluster), with the server's dry-run of the plan when there is one. Unlike kusion, what is
 * compared is normalised, so an apply followed by a preview shows nothing to do.
 */
import { fieldChanges, type FieldChange } from './fields.js';
import type { Attributes } from '../model/resource.js';
import { normalize, projectOnto } from './normalize.js';

export type Action = 'Create' | 'Update' | 'Delete' | 'UnChanged' | 'Import';

export interface Decision {
  action: Action;
  /** What would change on the live object (empty for UnChanged, Delete). */
  fields: FieldChange[];
  /** Someone changed a field kdeck manages outside kdeck since the last apply. */
  drift: boolean;
  /** The field changes made behind kdeck's back (live against the last applied). */
  driftFields: FieldChange[];
  /** Said beside the action: why it is what it is, when that is not obvious. */
  note?: string;
}

export interface ThreeWay {
  /** The attributes kdeck last applied, from the state. */
  prior?: Attributes;
  /** The attributes of the Spec. */
  plan?: Attributes;
  live?: Attributes;
  /** The server's answer to a dry-run apply of the plan; undefined when it could not be asked. */
  dryRun?: Attributes;
  ignoreFields?: string[];
  showSecrets?: boolean;
}

/** Live against the last applied state, on the fields the state sets: what changed behind kdeck's back. */
export function driftOf(prior: Attributes, live: Attributes, ignore: string[], showSecrets: boolean): FieldChange[] {
  const before = normalize(prior, ignore);
  return fieldChanges(before, projectOnto(normalize(live, ignore), before) as Attributes, { showSecrets });
}

export function decide(t: ThreeWay): Decision {
  const ignore = t.ignoreFields ?? [];
  const showSecrets = t.showSecrets ?? false;
  const none = { fields: [], drift: false, driftFields: [] };
  if (!t.plan) {
    if (!t.prior) throw new Error('a resource with neither a plan nor a prior state has nothing to decide');
    return { action: 'Delete', ...none, ...(t.live ? {} : { note: 'already gone from the cluster' }) };
  }
  if (!t.live) {
    const note = t.prior ? 'deleted outside kdeck since the last apply' : undefined;
    return {
      action: 'Create',
      fields: fieldChanges({}, normalize(t.plan, ignore), { showSecrets }),
      drift: t.prior !== undefined,
      driftFields: [],
      ...(note ? { note } : {}),
    };
  }
  const live = normalize(t.live, ignore);
  // without a dry run (the server refused it, or the kind is not known yet) the plan is compared
  // with the live fields it sets, which cannot see defaults the plan would reset
  const after = t.dryRun ? normalize(t.dryRun, ignore) : normalize(t.plan, ignore);
  const before = t.dryRun ? live : (projectOnto(live, after) as Attributes);
  const fields = fieldChanges(before, after, { showSecrets });
  if (!t.prior) {
    return {
      action: 'Import',
      fields,
      drift: false,
      driftFields: [],
      note: fields.length
        ? 'exists in the cluster but not in the state: kdeck adopts it and applies the changes'
        : 'exists in the cluster but not in the state: kdeck adopts it as it is',
    };
  }
  const driftFields = driftOf(t.prior, t.live, ignore, showSecrets);
  const drift = driftFields.length > 0;
  return {
    action: fields.length ? 'Update' : 'UnChanged',
    fields,
    drift,
    driftFields,
    ...(drift ? { note: 'changed outside kdeck since the last apply' } : {}),
  };
}
