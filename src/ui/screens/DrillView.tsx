/**
 * The page about one object shown over the main view: a workload's pods, the object described,
 * or its live YAML, each with the kubectl command that shows the same.
 */
import type { ObjectControl, ObjectView } from '../../app/console/objects.js';
import { podSelectorOf } from '../../app/pods/owned-pods.js';
import { kubectlName } from '../../app/pods/target.js';
import { podRows, selectedPodRow, type DrillPage } from '../drill.js';
import { ObjectTextView } from './ObjectTextView.js';
import { objectLines } from './object-lines.js';
import { PodsView } from './PodsView.js';

export function DrillView({
  page,
  view,
  objects,
  filter,
  managedFieldsKey,
  width,
  height,
  focused,
}: {
  page: DrillPage;
  view: ObjectView | undefined;
  objects: ObjectControl;
  filter: string;
  /** The key that shows or hides managedFields, as bound. */
  managedFieldsKey: string;
  width: number;
  height: number;
  focused: boolean;
}) {
  const now = objects.now();
  const where = `${page.of.namespace ? `${page.of.namespace} on ` : ''}${page.of.cluster}`;
  if (page.kind === 'pods') {
    const { rows } = podRows(page, view, filter, now);
    const selector = view?.object ? podSelectorOf(view.object) : undefined;
    const total = view?.pods.length ?? 0;
    const count = rows.length === total ? `${total}` : `${rows.length} of ${total}`;
    const sorted = page.sort ? `, by ${page.sort.column}${page.sort.descending ? ' (descending)' : ''}` : '';
    return (
      <PodsView
        title={`Pods of ${kubectlName(page.of)} in ${where}: ${count}${sorted}`}
        rows={rows}
        selected={selectedPodRow(page, rows)?.name}
        sort={page.sort}
        loading={view?.loading ?? true}
        empty={
          view?.gone
            ? `${kubectlName(page.of)} is not in ${where} (not applied yet, or deleted).`
            : `No pods${page.of.kind === 'Service' ? ' behind its endpoints' : ''}.`
        }
        errors={view?.errors ?? []}
        command={objects.kubectl(page.of, ['get', 'pods', '-o', 'wide', ...(selector ? ['-l', selector] : [])])}
        width={width}
        height={height}
        focused={focused}
      />
    );
  }
  const lines = objectLines(page, view, { showSecrets: objects.showSecrets, now });
  const title =
    page.kind === 'describe'
      ? `Describe ${kubectlName(page.of)} in ${where}`
      : `YAML of ${kubectlName(page.of)} (managedFields ${page.managedFields ? 'shown' : 'hidden'}: ${managedFieldsKey}${page.of.kind === 'Secret' && !objects.showSecrets ? '; values masked' : ''}) in ${where}`;
  const command =
    page.kind === 'describe'
      ? objects.kubectl(page.of, ['describe', kubectlName(page.of)])
      : objects.kubectl(page.of, [
          'get',
          kubectlName(page.of),
          '-o',
          'yaml',
          ...(page.managedFields ? ['--show-managed-fields'] : []),
        ]);
  return (
    <ObjectTextView
      title={title}
      lines={lines}
      scroll={page.scroll}
      search={filter}
      command={command}
      width={width}
      height={height}
    />
  );
}
