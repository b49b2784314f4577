/**
 * What a kubelet needs from ConfigMaps and Secrets before a pod can run, and what it says when
 * they are not there. The API server takes a pod whatever it refers to; the kubelet finds out:
 * - a ConfigMap or Secret volume that is missing keeps the pod ContainerCreating, with a
 *   FailedMount event each time the volume manager tries again (0.5 s, doubling, at most 2m2s);
 * - a container whose environment names a missing ConfigMap, Secret or key is not created: it
 *   waits as CreateContainerConfigError until the pod worker tries again (container-run.ts).
 * A reference marked `optional` is skipped when what it names is missing, as the kubelet does.
 */
import { isMap } from '../json.js';
import type { KubeObject } from '../api/object.js';
import type { ConfigSource, Container, Pod } from './kinds.js';

type SourceKind = 'ConfigMap' | 'Secret';

/** Reads a ConfigMap or Secret of the pod's namespace. */
export type ConfigLookup = (kind: SourceKind, name: string) => KubeObject | undefined;

const WORD = { ConfigMap: 'configmap', Secret: 'secret' } as const;

/** The keys of a stored ConfigMap or Secret (a Secret's stringData is folded into data on write). */
function keysOf(o: KubeObject): Set<string> {
  const keys = new Set<string>();
  for (const field of ['data', 'binaryData']) if (isMap(o[field])) for (const k of Object.keys(o[field])) keys.add(k);
  return keys;
}

/** A source's name: a Secret volume says `secretName`, every other reference `name`. */
const nameOf = (source: ConfigSource) => source.secretName ?? source.name ?? '';

type Missing = { what: 'object' } | { what: 'key'; key: string };

/** What of `source` is missing (nothing when it is optional), with the keys it needs. */
function missingOf(kind: SourceKind, source: ConfigSource, keys: string[], lookup: ConfigLookup): Missing | undefined {
  if (source.optional === true) return undefined;
  const found = lookup(kind, nameOf(source));
  if (!found) return { what: 'object' };
  const present = keysOf(found);
  const key = keys.find((k) => !present.has(k));
  return key === undefined ? undefined : { what: 'key', key };
}

/** Why the container's environment cannot be made now (CreateContainerConfigError), if it cannot. */
export function containerConfigProblem(pod: Pod, container: Container, lookup: ConfigLookup): string | undefined {
  const refs: [SourceKind, ConfigSource, string[]][] = [];
  // the kubelet reads envFrom before env, each in order, and stops at the first it cannot read
  for (const from of container.envFrom ?? []) {
    if (from.configMapRef) refs.push(['ConfigMap', from.configMapRef, []]);
    if (from.secretRef) refs.push(['Secret', from.secretRef, []]);
  }
  for (const { valueFrom } of container.env ?? []) {
    if (valueFrom?.configMapKeyRef)
      refs.push(['ConfigMap', valueFrom.configMapKeyRef, [valueFrom.configMapKeyRef.key ?? '']]);
    if (valueFrom?.secretKeyRef) refs.push(['Secret', valueFrom.secretKeyRef, [valueFrom.secretKeyRef.key ?? '']]);
  }
  for (const [kind, source, keys] of refs) {
    const missing = missingOf(kind, source, keys, lookup);
    if (missing?.what === 'object') return `${WORD[kind]} "${nameOf(source)}" not found`;
    if (missing?.what === 'key')
      return `couldn't find key ${missing.key} in ${kind} ${pod.metadata.namespace ?? ''}/${nameOf(source)}`;
  }
  return undefined;
}

/** The first ConfigMap or Secret volume of the pod that cannot be mounted now, in the kubelet's words. */
export function volumeProblem(pod: Pod, lookup: ConfigLookup): string | undefined {
  for (const v of pod.spec.volumes ?? []) {
    const sources: [SourceKind, ConfigSource][] = [];
    if (v.configMap) sources.push(['ConfigMap', v.configMap]);
    if (v.secret) sources.push(['Secret', v.secret]);
    for (const p of v.projected?.sources ?? []) {
      if (p.configMap) sources.push(['ConfigMap', p.configMap]);
      if (p.secret) sources.push(['Secret', p.secret]);
    }
    for (const [kind, source] of sources) {
      const missing = missingOf(
        kind,
        source,
        (source.items ?? []).map((i) => i.key),
        lookup,
      );
      const failed = `MountVolume.SetUp failed for volume "${v.name}" :`;
      if (missing?.what === 'object') return `${failed} ${WORD[kind]} "${nameOf(source)}" not found`;
      if (missing?.what === 'key')
        return `${failed} ${WORD[kind]} references non-existent ${kind === 'ConfigMap' ? 'config' : 'secret'} key: ${missing.key}`;
    }
  }
  return undefined;
}

/** The volume manager's wait before mounting again after a failure: 0.5 s, doubling, at most 2m2s. */
export function mountRetryMs(failures: number): number {
  return Math.min(500 * 2 ** Math.max(0, failures - 1), 122_000);
}
