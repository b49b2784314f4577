/**
 * Pod logs. There are no real containers, so the log tells what the sandbox did with the pod:
 * which node it ran on and how its containers fared.
 */
import { getPath, isMap } from '../json.js';
import { badRequest } from '../api/errors.js';
import type { KubeObject } from '../api/object.js';

export function podLog(pod: KubeObject, query: URLSearchParams): string {
  const containers = (getPath(pod, ['spec', 'containers']) as unknown[] | undefined)?.filter(isMap) ?? [];
  const name = query.get('container') ?? (containers.length === 1 ? String(containers[0]!.name) : undefined);
  if (name === undefined) {
    const names = containers.map((c) => String(c.name)).join(' ');
    throw badRequest(
      `a container name must be specified for pod ${pod.metadata.name ?? ''}, choose one of: [${names}]`,
    );
  }
  const c = containers.find((x) => x.name === name);
  if (!c) throw badRequest(`container ${name} is not valid for pod ${pod.metadata.name ?? ''}`);
  const statuses = (getPath(pod, ['status', 'containerStatuses']) as unknown[] | undefined)?.filter(isMap) ?? [];
  const st = statuses.find((s) => s.name === name);
  const started = getPath(st, ['state', 'running', 'startedAt']);
  const node = String(getPath(pod, ['spec', 'nodeName']) ?? '');
  const lines: string[] = [];
  if (typeof started === 'string') {
    lines.push(`${started} sandbox: container ${name} (image ${String(c.image)}) started on node ${node}`);
    lines.push(`${started} sandbox: this is a simulated container; the kdeck sandbox runs no processes`);
  }
  const tail = query.get('tailLines');
  const n = tail === null ? lines.length : Math.max(0, Number(tail));
  return lines
    .slice(lines.length - n)
    .map((l) => `${l}\n`)
    .join('');
}
