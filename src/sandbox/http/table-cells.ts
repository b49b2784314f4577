/**
 * What every `kubectl get` column table is made of: the Column, the readers of an object's
 * fields, and the columns many kinds share.
 */
import { getPath, isMap, type JsonMap } from '../json.js';
import type { KubeObject } from '../api/object.js';
import { humanAge, parseTime } from '../time.js';

export interface Column {
  name: string;
  type?: 'string' | 'integer';
  priority?: number;
  cell: (o: KubeObject, now: number) => string | number;
}

export const num = (o: KubeObject, path: string[]): number => {
  const v = getPath(o, path);
  return typeof v === 'number' ? v : 0;
};
export const list = (o: KubeObject, path: string[]): JsonMap[] => {
  const v = getPath(o, path);
  return Array.isArray(v) ? v.filter(isMap) : [];
};
export const str = (v: unknown, none = '<none>'): string => (typeof v === 'string' && v !== '' ? v : none);

export const NAME: Column = { name: 'Name', cell: (o) => o.metadata.name ?? '' };
export const AGE: Column = { name: 'Age', cell: (o, now) => humanAge(parseTime(o.metadata.creationTimestamp), now) };

/** The wide CONTAINERS and IMAGES columns of a pod template at `path`. */
export function containerColumns(path: string[]): Column[] {
  const containers = (o: KubeObject) => list(o, [...path, 'containers']);
  return [
    {
      name: 'Containers',
      priority: 1,
      cell: (o) =>
        containers(o)
          .map((c) => String(c.name))
          .join(','),
    },
    {
      name: 'Images',
      priority: 1,
      cell: (o) =>
        containers(o)
          .map((c) => String(c.image))
          .join(','),
    },
  ];
}
