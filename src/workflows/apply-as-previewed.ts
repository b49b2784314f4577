/**
 * Sending an approved create or update so that a change made to the object since the preview is
 * noticed without reading the object again first (a read before every apply doubled the calls of
 * a run). The server does the checking, atomically, where a read would leave a gap before the apply:
 * - an update is sent on the condition that the object is still at the resourceVersion the
 *   preview saw (server-side apply honours `metadata.resourceVersion` as a precondition). Refused
 *   with a conflict, the object is read: if it changed, the change is reported and the plan is
 *   applied over it, as before; if it did not, the conflict is over fields another manager owns,
 *   and it fails as it would have (server-side apply's own conflict detection, --force-conflicts);
 * - a create that finds the object made by another hand (its answer names other managers) or an
 *   update that finds another object under the name (another uid) reports it.
 * So a change behind kdeck's back between the preview and the apply is reported in every case
 * the read reported it, and fields another manager owns are never taken without --force-conflicts.
 */
import { decide } from '../diff/actions.js';
import { renderFieldChanges } from '../diff/render.js';
import type { ResourceChange } from '../diff/change-set.js';
import { FIELD_MANAGER } from '../cluster/objects.js';
import { ApiError } from '../cluster/rest.js';
import { refOf, type KubeObject } from '../model/kube-object.js';
import type { ClusterPort } from './plan.js';

/** The field managers of an object other than kdeck. */
function otherManagers(o: KubeObject): string[] {
  const entries = (o.metadata?.managedFields ?? []) as { manager?: string }[];
  return [...new Set(entries.map((e) => e.manager ?? '').filter((m) => m && m !== FIELD_MANAGER))].sort();
}

/** What changed in the live object since the preview, as the user reads it. */
function changeSince(c: ResourceChange, live: KubeObject | undefined): string {
  if (!live) return 'it is gone';
  const again = decide({ prior: c.prior?.attributes, plan: c.resource!.attributes, live });
  return again.fields.length ? renderFieldChanges(again.fields) : 'no field differs from the plan';
}

/**
 * Applies `value` (the change's manifest, its references resolved); `changed` hears what changed
 * since the preview, when something did. Resolves with the server's object.
 */
export async function applyAsPreviewed(
  client: ClusterPort,
  c: ResourceChange,
  value: KubeObject,
  force: boolean | undefined,
  changed: (message: string) => void,
): Promise<KubeObject> {
  const seen = c.live?.metadata;
  const expected = typeof seen?.resourceVersion === 'string' ? seen.resourceVersion : '';
  if (!expected) {
    const created = await client.apply(value, { force });
    const others = otherManagers(created);
    if (others.length)
      changed(
        `the live object changed since the preview: it was created meanwhile (fields managed by ${others.join(', ')})`,
      );
    return created;
  }
  let result: KubeObject;
  try {
    result = await client.apply({ ...value, metadata: { ...value.metadata, resourceVersion: expected } }, { force });
  } catch (e) {
    // a conflict, or (on some servers) not found when the object is gone
    if (!(e instanceof ApiError && (e.status === 409 || e.status === 404))) throw e;
    const live = await client.get(refOf(value));
    if (live?.metadata?.resourceVersion === expected) throw e;
    changed(`the live object changed since the preview: ${changeSince(c, live)}`);
    return client.apply(value, { force });
  }
  // a server that creates on a condition it cannot check (the object was gone) says so by the new uid
  if (seen?.uid && result.metadata?.uid !== seen.uid)
    changed('the live object changed since the preview: it was deleted meanwhile, and this apply created it again');
  return result;
}
