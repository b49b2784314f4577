/**
 * The value at a field path as fields.ts writes it (`spec.template.spec.containers[name=web].image`,
 * `data["a.b"]`, `ports[0]`), read from an object: what the console shows in each of the three
 * columns (state, plan, live) of a field that differs. Pure.
 */
import { isObject } from '../model/resource.js';

type Step = { key: string } | { index: number } | { name: string };

/** The steps of a path; undefined when it is not one fields.ts writes. */
export function pathSteps(path: string): Step[] | undefined {
  const steps: Step[] = [];
  const re = /\.?([A-Za-z_][\w-]*)|\[(\d+)\]|\[name=([^\]]*)\]|\[("(?:[^"\\]|\\.)*")\]/y;
  let at = 0;
  while (at < path.length) {
    re.lastIndex = at;
    const m = re.exec(path);
    if (!m) return undefined;
    if (m[1] !== undefined) steps.push({ key: m[1] });
    else if (m[2] !== undefined) steps.push({ index: Number(m[2]) });
    else if (m[3] !== undefined) steps.push({ name: m[3] });
    else steps.push({ key: JSON.parse(m[4]) as string });
    at = re.lastIndex;
  }
  return steps;
}

export function valueAt(o: unknown, path: string): unknown {
  const steps = pathSteps(path);
  if (!steps) return undefined;
  let v: unknown = o;
  for (const s of steps) {
    if ('key' in s) v = isObject(v) ? v[s.key] : undefined;
    else if ('index' in s) v = Array.isArray(v) ? v[s.index] : undefined;
    else v = Array.isArray(v) ? v.find((item) => isObject(item) && String(item.name) === s.name) : undefined;
    if (v === undefined) return undefined;
  }
  return v;
}
