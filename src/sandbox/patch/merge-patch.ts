/**
 * JSON merge patch (RFC 7386, `application/merge-patch+json`): maps merge, null deletes,
 * everything else (lists included) replaces.
 */
import { clone, isMap } from '../json.js';

export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isMap(patch)) return clone(patch);
  const out = isMap(target) ? clone(target) : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}
