/**
 * The lines of a page of text about one object (describe, YAML) from what the console follows:
 * a word while it is read, a sentence when it does not exist or cannot be read. Pure.
 */
import type { ObjectView } from '../../app/console/objects.js';
import { liveYaml } from '../../app/console/live-yaml.js';
import { kubectlName } from '../../app/pods/target.js';
import type { DrillPage } from '../drill.js';
import { describeLines } from './describe-lines.js';
import type { DiffLine } from './diff-lines.js';

export function objectLines(
  page: Extract<DrillPage, { kind: 'describe' | 'yaml' }>,
  view: ObjectView | undefined,
  options: { showSecrets: boolean; now: number },
): DiffLine[] {
  const errors: DiffLine[] = (view?.errors ?? []).map((text) => ({ text, tone: 'danger' }));
  if (!view || view.loading)
    return [...errors, { text: `Reading ${kubectlName(page.of)} from ${page.of.cluster}…`, tone: 'muted' }];
  if (!view.object)
    return [
      ...errors,
      {
        text: `${kubectlName(page.of)} is not in ${page.of.namespace ? `namespace ${page.of.namespace} on ` : ''}${page.of.cluster} (not applied yet, or deleted).`,
        tone: 'warning',
      },
    ];
  const body =
    page.kind === 'yaml'
      ? liveYaml(view.object, { managedFields: page.managedFields, showSecrets: options.showSecrets })
          .trimEnd()
          .split('\n')
          .map((text) => ({ text }))
      : describeLines({ object: view.object, pods: view.pods, events: view.events }, options.now);
  return [...errors, ...body];
}

/** Indexes of the lines that hold `search` (case-insensitive). */
export function matchingLines(lines: readonly DiffLine[], search: string): number[] {
  const needle = search.toLowerCase();
  if (!needle) return [];
  return lines.flatMap((l, i) => (l.text.toLowerCase().includes(needle) ? [i] : []));
}
