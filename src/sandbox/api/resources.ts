/**
 * The resource types the sandbox serves: the built-in table, and the registry that adds the
 * custom resources a CustomResourceDefinition defines.
 */

export interface PrinterColumn {
  name: string;
  type: string;
  jsonPath: string;
  priority: number;
  description?: string;
}

export type SubresourceName = 'status' | 'scale' | 'eviction' | 'log' | 'finalize' | 'token';

export interface ResourceType {
  group: string;
  version: string;
  kind: string;
  /** Plural, lower-case: the path segment and the `kind` of NotFound details. */
  plural: string;
  singular: string;
  namespaced: boolean;
  shortNames: readonly string[];
  categories: readonly string[];
  subresources: readonly SubresourceName[];
  /** Spec changes bump metadata.generation. */
  generation: boolean;
  /** DELETE answers the object itself rather than a Success Status. */
  returnsDeletedObject: boolean;
  /**
   * A review the server answers without storing anything (SelfSubjectAccessReview, TokenReview…):
   * it takes `create` only.
   */
  virtual?: boolean;
  /** Set for custom resources: the CRD's name. */
  crd?: string;
  /** A custom resource's structural schema (its version's openAPIV3Schema). */
  schema?: Record<string, unknown>;
  /** A custom resource's additionalPrinterColumns, for `kubectl get`. */
  printerColumns?: readonly PrinterColumn[];
  /** Where the scale subresource reads and writes replicas, when not `spec.replicas`. */
  scalePaths?: { spec: string[]; status: string[]; selector?: string[] };
}

export function apiVersionOf(r: Pick<ResourceType, 'group' | 'version'>): string {
  return r.group === '' ? r.version : `${r.group}/${r.version}`;
}

/** The key a resource type is stored under: `apps/deployments`, `/pods`. */
export function resourceKey(r: Pick<ResourceType, 'group' | 'plural'>): string {
  return `${r.group}/${r.plural}`;
}

export function hasStatus(r: ResourceType): boolean {
  return r.subresources.includes('status');
}

interface Spec {
  kind: string;
  plural?: string;
  namespaced?: boolean;
  short?: string[];
  all?: boolean;
  sub?: SubresourceName[];
  generation?: boolean;
  returnsObject?: boolean;
  virtual?: boolean;
}

function group(groupName: string, version: string, specs: Spec[]): ResourceType[] {
  return specs.map((s) => {
    const singular = s.kind.toLowerCase();
    return {
      group: groupName,
      version,
      kind: s.kind,
      plural: s.plural ?? `${singular}s`,
      singular,
      namespaced: s.namespaced ?? true,
      shortNames: s.short ?? [],
      categories: s.all ? ['all'] : [],
      subresources: s.sub ?? [],
      generation: s.generation ?? false,
      returnsDeletedObject: s.returnsObject ?? false,
      ...(s.virtual ? { virtual: true } : {}),
    };
  });
}

const BUILTIN_RESOURCES: readonly ResourceType[] = [
  ...group('', 'v1', [
    { kind: 'ConfigMap', short: ['cm'] },
    { kind: 'Endpoints', plural: 'endpoints', short: ['ep'] },
    { kind: 'Event', short: ['ev'] },
    { kind: 'LimitRange', short: ['limits'] },
    { kind: 'Namespace', namespaced: false, short: ['ns'], sub: ['status', 'finalize'], returnsObject: true },
    { kind: 'Node', namespaced: false, short: ['no'], sub: ['status'], returnsObject: true },
    { kind: 'PersistentVolume', namespaced: false, short: ['pv'], sub: ['status'], returnsObject: true },
    { kind: 'PersistentVolumeClaim', short: ['pvc'], sub: ['status'], returnsObject: true },
    {
      kind: 'Pod',
      short: ['po'],
      all: true,
      sub: ['status', 'eviction', 'log'],
      generation: true,
      returnsObject: true,
    },
    { kind: 'PodTemplate' },
    {
      kind: 'ReplicationController',
      short: ['rc'],
      all: true,
      sub: ['status', 'scale'],
      generation: true,
    },
    { kind: 'ResourceQuota', short: ['quota'], sub: ['status'] },
    { kind: 'Secret' },
    { kind: 'ServiceAccount', short: ['sa'], sub: ['token'], returnsObject: true },
    { kind: 'Service', short: ['svc'], all: true, sub: ['status'] },
  ]),
  ...group('apps', 'v1', [
    { kind: 'ControllerRevision' },
    { kind: 'DaemonSet', short: ['ds'], all: true, sub: ['status'], generation: true },
    { kind: 'Deployment', short: ['deploy'], all: true, sub: ['status', 'scale'], generation: true },
    { kind: 'ReplicaSet', short: ['rs'], all: true, sub: ['status', 'scale'], generation: true },
    { kind: 'StatefulSet', short: ['sts'], all: true, sub: ['status', 'scale'], generation: true },
  ]),
  ...group('batch', 'v1', [
    { kind: 'CronJob', short: ['cj'], all: true, sub: ['status'], generation: true },
    { kind: 'Job', all: true, sub: ['status'], generation: true },
  ]),
  ...group('policy', 'v1', [{ kind: 'PodDisruptionBudget', short: ['pdb'], sub: ['status'], generation: true }]),
  ...group('coordination.k8s.io', 'v1', [{ kind: 'Lease' }]),
  ...group('discovery.k8s.io', 'v1', [{ kind: 'EndpointSlice' }]),
  ...group('events.k8s.io', 'v1', [{ kind: 'Event', short: ['ev'] }]),
  ...group('networking.k8s.io', 'v1', [
    { kind: 'Ingress', plural: 'ingresses', short: ['ing'], sub: ['status'], generation: true },
    { kind: 'IngressClass', plural: 'ingressclasses', namespaced: false },
    { kind: 'NetworkPolicy', plural: 'networkpolicies', short: ['netpol'], generation: true },
  ]),
  // one storage for both versions (v2, listed first, is the preferred and stored one)
  ...group('autoscaling', 'v2', [
    { kind: 'HorizontalPodAutoscaler', short: ['hpa'], all: true, sub: ['status'], generation: true },
  ]),
  ...group('autoscaling', 'v1', [
    { kind: 'HorizontalPodAutoscaler', short: ['hpa'], all: true, sub: ['status'], generation: true },
  ]),
  ...group('scheduling.k8s.io', 'v1', [
    { kind: 'PriorityClass', plural: 'priorityclasses', namespaced: false, short: ['pc'] },
  ]),
  ...group('storage.k8s.io', 'v1', [
    { kind: 'CSIDriver', namespaced: false },
    { kind: 'CSINode', namespaced: false },
    { kind: 'StorageClass', plural: 'storageclasses', namespaced: false, short: ['sc'] },
    { kind: 'VolumeAttachment', namespaced: false, sub: ['status'] },
  ]),
  ...group('authorization.k8s.io', 'v1', [
    { kind: 'LocalSubjectAccessReview', virtual: true },
    { kind: 'SelfSubjectAccessReview', namespaced: false, virtual: true },
    { kind: 'SelfSubjectRulesReview', namespaced: false, virtual: true },
    { kind: 'SubjectAccessReview', namespaced: false, virtual: true },
  ]),
  ...group('authentication.k8s.io', 'v1', [
    { kind: 'SelfSubjectReview', namespaced: false, virtual: true },
    { kind: 'TokenReview', namespaced: false, virtual: true },
  ]),
  ...group('rbac.authorization.k8s.io', 'v1', [
    { kind: 'ClusterRole', namespaced: false },
    { kind: 'ClusterRoleBinding', namespaced: false },
    { kind: 'Role' },
    { kind: 'RoleBinding' },
  ]),
  ...group('apiextensions.k8s.io', 'v1', [
    {
      kind: 'CustomResourceDefinition',
      namespaced: false,
      short: ['crd', 'crds'],
      sub: ['status'],
      generation: true,
      returnsObject: true,
    },
  ]),
];

/**
 * All resource types of one cluster. Built-in types never change; custom ones come and go with
 * their CRDs, and every change bumps `revision` so discovery documents can be cached.
 */
export class ResourceRegistry {
  private readonly byPath = new Map<string, ResourceType>();
  private readonly byKind = new Map<string, ResourceType>();
  private readonly custom = new Map<string, ResourceType[]>();
  revision = 0;

  constructor() {
    for (const r of BUILTIN_RESOURCES) this.add(r);
  }

  private add(r: ResourceType): void {
    this.byPath.set(`${r.group}/${r.version}/${r.plural}`, r);
    this.byKind.set(`${r.group}/${r.version}/${r.kind}`, r);
  }

  lookup(groupName: string, version: string, plural: string): ResourceType | undefined {
    return this.byPath.get(`${groupName}/${version}/${plural}`);
  }

  /** The type for an apiVersion and kind, as object bodies name them. */
  forKind(apiVersion: string, kind: string): ResourceType | undefined {
    const slash = apiVersion.indexOf('/');
    const g = slash < 0 ? '' : apiVersion.slice(0, slash);
    const v = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
    return this.byKind.get(`${g}/${v}/${kind}`);
  }

  /** The storage type of a group and plural, whatever version asked for it. */
  forResource(groupName: string, plural: string): ResourceType | undefined {
    for (const r of this.byPath.values()) if (r.group === groupName && r.plural === plural) return r;
    return undefined;
  }

  all(): ResourceType[] {
    return [...this.byPath.values()];
  }

  /** group → versions, in the order they were added (built-ins first). */
  groupVersions(): Map<string, string[]> {
    const out = new Map<string, string[]>();
    for (const r of this.byPath.values()) {
      const vs = out.get(r.group) ?? [];
      if (!vs.includes(r.version)) vs.push(r.version);
      out.set(r.group, vs);
    }
    return out;
  }

  inGroupVersion(groupName: string, version: string): ResourceType[] {
    return this.all()
      .filter((r) => r.group === groupName && r.version === version)
      .sort((a, b) => a.plural.localeCompare(b.plural));
  }

  /** Installs (or replaces) the types a CRD defines. */
  defineCustom(crdName: string, types: ResourceType[]): void {
    this.removeCustom(crdName);
    this.custom.set(crdName, types);
    for (const t of types) this.add(t);
    this.revision++;
  }

  removeCustom(crdName: string): void {
    const old = this.custom.get(crdName);
    if (!old) return;
    for (const t of old) {
      this.byPath.delete(`${t.group}/${t.version}/${t.plural}`);
      this.byKind.delete(`${t.group}/${t.version}/${t.kind}`);
    }
    this.custom.delete(crdName);
    this.revision++;
  }
}
