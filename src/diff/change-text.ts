/**
 * A change set as text (kusion's preview table, then the detail of each change) and as kusion's
 * JSON shape for scripts. Secret values are masked in both.
 */
import type { KubeObject } from '../model/kube-object.js';
import { maskSecret } from './fields.js';
import { isObject, type Attributes } from '../model/resource.js';
import { renderFieldChanges } from './render.js';
import { summarize, type ChangeSet, type ResourceChange } from './change-set.js';

const VERB: Record<ResourceChange['action'], string> = {
  Create: 'Creating',
  Update: 'Updating',
  Delete: 'Deleting',
  UnChanged: 'Unchanged',
  Import: 'Importing',
};

function actionText(c: ResourceChange): string {
  if (c.sharedWith) return `Forget (kept: also applied by ${c.sharedWith.join(', ')})`;
  const extra = [
    c.decision.drift && c.action !== 'Create' ? 'drift' : '',
    c.unresolved.length ? `${c.unresolved.length} value${c.unresolved.length > 1 ? 's' : ''} known after apply` : '',
  ].filter(Boolean);
  return extra.length ? `${c.action} (${extra.join(', ')})` : c.action;
}

export function changeTable(cs: ChangeSet): string {
  if (cs.changes.length === 0) return `Stack ${cs.project}/${cs.stack}: no resource found in this stack.\n`;
  const rows = cs.changes.map((c) => [c.id, c.cluster, actionText(c)]);
  const w0 = Math.max('ID'.length, ...rows.map((r) => r[0].length));
  const w1 = Math.max('Cluster'.length, ...rows.map((r) => r[1].length));
  const lines = [`Stack ${cs.project}/${cs.stack}`, `      ${'ID'.padEnd(w0)}  ${'Cluster'.padEnd(w1)}  Action`];
  rows.forEach((r, i) =>
    lines.push(` * ${i === rows.length - 1 ? '└─' : '├─'} ${r[0].padEnd(w0)}  ${r[1].padEnd(w1)}  ${r[2]}`),
  );
  return lines.join('\n') + '\n';
}

export function changeSummary(cs: ChangeSet): string {
  const n = summarize(cs.changes);
  if (n.Create + n.Update + n.Delete + n.Import === 0) return 'All resources are reconciled. No diff found.\n';
  const parts = [`${n.Create} to create`, `${n.Update} to update`, `${n.Delete} to delete`];
  if (n.Import) parts.push(`${n.Import} to import`);
  return `Plan: ${parts.join(', ')}, ${n.UnChanged} unchanged.\n`;
}

export function changeDetail(c: ResourceChange): string {
  const lines = [`ID: ${c.id} (${c.cluster})`, `Plan: ${VERB[c.action]}`];
  if (c.decision.note) lines.push(`Note: ${c.decision.note}`);
  if (c.decision.drift && c.decision.driftFields.length)
    lines.push('Drift (changed outside kdeck):', renderFieldChanges(c.decision.driftFields, '  '));
  for (const r of c.unresolved) lines.push(`Known after apply: ${r.at} (from ${r.target}#${r.pointer})`);
  if (c.action === 'Delete') lines.push('Diff: the whole object is deleted');
  else lines.push('Diff:', c.decision.fields.length ? renderFieldChanges(c.decision.fields, '  ') : '  <EMPTY>');
  return lines.join('\n') + '\n';
}

export function changeDetails(cs: ChangeSet): string {
  return cs.changes
    .filter((c) => c.action !== 'UnChanged')
    .map(changeDetail)
    .join('\n');
}

/** An object for scripts: Secret values masked, and without the server's managedFields bookkeeping. */
function forJson(o: KubeObject | Attributes | undefined): Attributes | null {
  if (!o) return null;
  const m = maskSecret(o as Attributes);
  if (!isObject(m.metadata) || !('managedFields' in m.metadata)) return m;
  const { managedFields: _managedFields, ...metadata } = m.metadata;
  return { ...m, metadata };
}

/** What the table and `-d` say beside an action, as data: drift, conflicts, notes, values known after apply. */
function notesJson(c: ResourceChange): Attributes {
  return {
    drift: c.decision.drift,
    ...(c.decision.driftFields.length ? { driftFields: c.decision.driftFields } : {}),
    ...(c.conflict ? { conflict: c.conflict } : {}),
    ...(c.decision.note ? { note: c.decision.note } : {}),
    ...(c.dryRunError ? { dryRunError: c.dryRunError } : {}),
    ...(c.unresolved.length ? { knownAfterApply: c.unresolved.map((r) => r.at) } : {}),
    ...(c.sharedWith ? { sharedWith: c.sharedWith } : {}),
  };
}

/**
 * kusion's `preview -o json` shape, with the cluster of each step and the notes the table shows. Steps are keyed by id as in
 * kusion; an id with a change on two clusters (a stack moving from one to the other) is keyed
 * `cluster/id` on both, so neither step hides the other.
 */
export function changeJson(cs: ChangeSet): string {
  const clustersOf = new Map<string, number>();
  for (const c of cs.changes) clustersOf.set(c.id, (clustersOf.get(c.id) ?? 0) + 1);
  const stepKey = (c: ResourceChange) => (clustersOf.get(c.id)! > 1 ? `${c.cluster}/${c.id}` : c.id);
  const changeSteps = Object.fromEntries(
    cs.changes.map((c) => [
      stepKey(c),
      {
        id: c.id,
        cluster: c.cluster,
        action: c.action,
        ...notesJson(c),
        from: forJson(c.live),
        to: c.action === 'Delete' ? null : forJson(c.dryRun ?? (c.resource?.attributes as Attributes | undefined)),
      },
    ]),
  );
  return JSON.stringify({ stepKeys: cs.changes.map(stepKey), changeSteps }, null, 2) + '\n';
}
