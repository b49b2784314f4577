/**
 * The Spec: the resources a stack declares, the input of every later stage (graph, diff, apply).
 * The model is kusion's (`id`, `type`, `dependsOn`, `attributes`, `extensions`), with the same
 * Kubernetes id format, checked here so that later stages can rely on it.
 */
import { kclError } from '../diagnostics/diagnostics.js';
import { isObject, KUBERNETES, manifestId, type Attributes, type Resource, type Spec } from '../model/resource.js';

const RESOURCE_KEYS = ['id', 'type', 'dependsOn', 'attributes', 'extensions'];

function specError(message: string) {
  return kclError('SpecError', message);
}

/** A Kubernetes manifest (from a CRD file or a raw-manifest output) as a resource. */
export function resourceFromManifest(obj: Attributes, origin: string): Resource {
  const id = manifestId(obj);
  if (typeof id !== 'string')
    throw specError(
      `${origin}: a Kubernetes object without ${id.missing}; every object needs apiVersion, kind and metadata.name`,
    );
  return { id, type: KUBERNETES, attributes: obj };
}

/** One document of a stack's output, checked: `origin` names where it came from for messages. */
function resourceFromDocument(doc: Attributes, origin: string): Resource {
  if (doc.id === undefined && typeof doc.apiVersion === 'string') return resourceFromManifest(doc, origin);
  const label = typeof doc.id === 'string' && doc.id ? `resource ${doc.id}` : `${origin}: a resource`;
  if (typeof doc.id !== 'string' || doc.id === '')
    throw specError(`${label} has no id; every resource needs an id (apiVersion:Kind:namespace:name)`);
  const unknown = Object.keys(doc).filter((k) => !RESOURCE_KEYS.includes(k));
  if (unknown.length)
    throw specError(
      `${label} has unknown key${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}; a resource has only ${RESOURCE_KEYS.join(', ')}`,
    );
  if (typeof doc.type !== 'string' || doc.type === '') throw specError(`${label} has no type; use type: ${KUBERNETES}`);
  if (!isObject(doc.attributes)) throw specError(`${label} has no attributes mapping (the object itself)`);
  const resource: Resource = { id: doc.id, type: doc.type, attributes: doc.attributes };
  if (doc.dependsOn !== undefined && doc.dependsOn !== null) {
    if (!Array.isArray(doc.dependsOn) || doc.dependsOn.some((d) => typeof d !== 'string'))
      throw specError(`${label}: dependsOn must be a list of resource ids`);
    if (doc.dependsOn.length) resource.dependsOn = doc.dependsOn as string[];
  }
  if (doc.extensions !== undefined && doc.extensions !== null) {
    if (!isObject(doc.extensions)) throw specError(`${label}: extensions must be a mapping`);
    if (Object.keys(doc.extensions).length) resource.extensions = doc.extensions;
  }
  if (resource.type === KUBERNETES) {
    const expected = manifestId(resource.attributes);
    if (typeof expected !== 'string')
      throw specError(
        `${label} has no ${expected.missing} in its attributes; a Kubernetes object needs apiVersion, kind and metadata.name`,
      );
    if (expected !== resource.id)
      throw specError(`${label} does not match its attributes, which make the id ${expected}`);
  }
  return resource;
}

/**
 * The resources of a stack's output documents. A document is a resource, or holds them in a
 * `resources` list (kdeck's render), or is a plain Kubernetes manifest.
 */
export function resourcesOfOutput(docs: unknown[], origin: string): Resource[] {
  const out: Resource[] = [];
  docs.forEach((doc, i) => {
    if (doc === null || doc === undefined) return;
    const where = docs.length > 1 ? `${origin} (document ${i + 1})` : origin;
    if (!isObject(doc)) throw specError(`${where}: the output is not a mapping; a stack outputs resources`);
    if (Array.isArray(doc.resources) && doc.id === undefined) {
      const extra = Object.keys(doc).filter((k) => k !== 'resources');
      if (extra.length) {
        throw specError(
          `${where}: top-level ${extra.join(', ')} beside resources; make ${extra.length > 1 ? 'them' : 'it'} private (a leading _) so that only resources are output`,
        );
      }
      doc.resources.forEach((r, j) => {
        if (!isObject(r)) throw specError(`${where}: resources[${j}] is not a mapping`);
        out.push(resourceFromDocument(r, `${where} resources[${j}]`));
      });
    } else {
      out.push(resourceFromDocument(doc, where));
    }
  });
  return out;
}

/** The Spec of a list of resources: ids unique, dependencies inside the Spec, sorted by id. */
export function specOf(resources: Resource[]): Spec {
  const ids = new Set<string>();
  for (const r of resources) {
    if (ids.has(r.id)) throw specError(`two resources have the id ${r.id}; ids must be unique within a stack`);
    ids.add(r.id);
  }
  for (const r of resources) {
    for (const d of r.dependsOn ?? []) {
      if (d === r.id) throw specError(`resource ${r.id} depends on itself`);
      if (!ids.has(d)) throw specError(`resource ${r.id} depends on ${d}, which is not a resource of this stack`);
    }
  }
  return { resources: [...resources].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)) };
}
