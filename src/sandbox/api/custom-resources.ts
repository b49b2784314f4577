/**
 * Custom resources: the resource types a CustomResourceDefinition defines, served as soon as
 * the CRD is stored (one type per served version, all stored together), and gone with it.
 */
import { getPath, isMap } from '../json.js';
import type { ApiContext } from './context.js';
import type { KubeObject } from './object.js';
import { resourceKey, type ResourceType, type SubresourceName } from './resources.js';
import type { StoreEvent } from './store.js';

function path(jsonPath: unknown): string[] | undefined {
  return typeof jsonPath === 'string' && jsonPath.startsWith('.') ? jsonPath.slice(1).split('.') : undefined;
}

export function typesOfCrd(crd: KubeObject): ResourceType[] {
  const spec = isMap(crd.spec) ? crd.spec : {};
  const names = isMap(spec.names) ? spec.names : {};
  const group = typeof spec.group === 'string' ? spec.group : '';
  const plural = typeof names.plural === 'string' ? names.plural : '';
  const kind = typeof names.kind === 'string' ? names.kind : '';
  if (!group || !plural || !kind) return [];
  const versions = Array.isArray(spec.versions) ? spec.versions.filter(isMap) : [];
  return versions
    .filter((v) => v.served !== false && typeof v.name === 'string')
    .map((v) => {
      const subs: SubresourceName[] = [];
      const status = getPath(v, ['subresources', 'status']);
      const scale = getPath(v, ['subresources', 'scale']);
      if (status !== undefined) subs.push('status');
      if (isMap(scale)) subs.push('scale');
      const t: ResourceType = {
        group,
        version: String(v.name),
        kind,
        plural,
        singular: typeof names.singular === 'string' ? names.singular : kind.toLowerCase(),
        namespaced: spec.scope !== 'Cluster',
        shortNames: Array.isArray(names.shortNames) ? names.shortNames.map(String) : [],
        categories: Array.isArray(names.categories) ? names.categories.map(String) : [],
        subresources: subs,
        generation: true,
        returnsDeletedObject: true,
        crd: crd.metadata.name ?? '',
      };
      const schema = getPath(v, ['schema', 'openAPIV3Schema']);
      if (isMap(schema)) t.schema = schema;
      const columns = Array.isArray(v.additionalPrinterColumns) ? v.additionalPrinterColumns.filter(isMap) : [];
      if (columns.length > 0)
        t.printerColumns = columns.map((c) => ({
          name: String(c.name ?? ''),
          type: String(c.type ?? 'string'),
          jsonPath: String(c.jsonPath ?? ''),
          priority: typeof c.priority === 'number' ? c.priority : 0,
          ...(typeof c.description === 'string' ? { description: c.description } : {}),
        }));
      if (isMap(scale)) {
        const specPath = path(scale.specReplicasPath);
        const statusPath = path(scale.statusReplicasPath);
        const selector = path(scale.labelSelectorPath);
        if (specPath && statusPath)
          t.scalePaths = selector
            ? { spec: specPath, status: statusPath, selector }
            : { spec: specPath, status: statusPath };
      }
      return t;
    });
}

/** Keeps the registry in step with the stored CRDs; a CRD's removal takes its objects along. */
export function followCrds(ctx: ApiContext): () => void {
  for (const crd of ctx.store.list('apiextensions.k8s.io/customresourcedefinitions'))
    ctx.resources.defineCustom(crd.metadata.name ?? '', typesOfCrd(crd));
  return ctx.store.subscribe((e: StoreEvent) => {
    if (e.resource !== 'apiextensions.k8s.io/customresourcedefinitions') return;
    const name = e.object.metadata.name ?? '';
    if (e.type !== 'DELETED') {
      ctx.resources.defineCustom(name, typesOfCrd(e.object));
      return;
    }
    const types = typesOfCrd(e.object);
    ctx.resources.removeCustom(name);
    const key = types[0] ? resourceKey(types[0]) : undefined;
    if (key)
      for (const o of ctx.store.list(key)) ctx.store.remove(key, o.metadata.namespace ?? '', o.metadata.name ?? '');
  });
}
