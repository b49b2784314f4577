/**
 * The Spec as `kdeck compile` prints it: one YAML document per resource, sorted by id, keys in
 * kusion's order, written by the same emitter as `kcl run` so the text matches the compiler's.
 */
import { fromPlain } from '../kcl/run.js';
import { toYamlStream } from '../kcl/yaml.js';
import type { Resource, Spec } from '../model/resource.js';

function document(r: Resource): Record<string, unknown> {
  return {
    id: r.id,
    type: r.type,
    ...(r.dependsOn?.length ? { dependsOn: r.dependsOn } : {}),
    attributes: r.attributes,
    ...(r.extensions && Object.keys(r.extensions).length ? { extensions: r.extensions } : {}),
  };
}

export function specToYaml(spec: Spec): string {
  return toYamlStream(spec.resources.map((r) => fromPlain(document(r))));
}
