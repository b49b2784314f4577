/**
 * How lists merge, for the built-in kinds: the patch metadata strategic merge patch reads
 * (`patchStrategy: merge`, `patchMergeKey`) and the list types server-side apply reads
 * (`listType: map` with `listMapKeys`, `set`, `atomic`). Only the fields whose lists merge are
 * described; any other list is atomic, any map merges key by key — which is also how custom
 * resources without schema markers behave.
 */

export type ListKind =
  /**
   * Items matched by key fields: SMP merges by `mergeKey`, SSA by all of `keys`, taking a key
   * left out as its default (a port's protocol is TCP).
   */
  | {
      type: 'map';
      mergeKey: string;
      keys: readonly string[];
      item?: TypeName;
      keyDefaults?: Readonly<Record<string, unknown>>;
    }
  /** Primitive items matched by value (finalizers). */
  | { type: 'set' }
  | { type: 'atomic' };

type TypeName =
  | 'ObjectMeta'
  | 'PodTemplateSpec'
  | 'PodSpec'
  | 'Container'
  | 'WorkloadSpec'
  | 'JobTemplateSpec'
  | 'CronJobSpec'
  | 'ServiceSpec'
  | 'ConditionsStatus'
  | 'NodeStatus'
  | 'CRDSpec';

type Field = { type: TypeName } | { list: ListKind };

const byName = (item?: TypeName): ListKind => ({ type: 'map', mergeKey: 'name', keys: ['name'], item });
const conditions: Field = { list: { type: 'map', mergeKey: 'type', keys: ['type'] } };

const TYPES: Record<TypeName, Record<string, Field>> = {
  ObjectMeta: {
    ownerReferences: { list: { type: 'map', mergeKey: 'uid', keys: ['uid'] } },
    finalizers: { list: { type: 'set' } },
  },
  PodTemplateSpec: { metadata: { type: 'ObjectMeta' }, spec: { type: 'PodSpec' } },
  PodSpec: {
    containers: { list: byName('Container') },
    initContainers: { list: byName('Container') },
    ephemeralContainers: { list: byName('Container') },
    volumes: { list: byName() },
    imagePullSecrets: { list: byName() },
    hostAliases: { list: { type: 'map', mergeKey: 'ip', keys: ['ip'] } },
    topologySpreadConstraints: {
      list: { type: 'map', mergeKey: 'topologyKey', keys: ['topologyKey', 'whenUnsatisfiable'] },
    },
    resourceClaims: { list: byName() },
    schedulingGates: { list: byName() },
    readinessGates: { list: { type: 'atomic' } },
  },
  Container: {
    env: { list: byName() },
    ports: {
      list: {
        type: 'map',
        mergeKey: 'containerPort',
        keys: ['containerPort', 'protocol'],
        keyDefaults: { protocol: 'TCP' },
      },
    },
    volumeMounts: { list: { type: 'map', mergeKey: 'mountPath', keys: ['mountPath'] } },
    volumeDevices: { list: { type: 'map', mergeKey: 'devicePath', keys: ['devicePath'] } },
    resizePolicy: { list: { type: 'atomic' } },
  },
  WorkloadSpec: { template: { type: 'PodTemplateSpec' } },
  JobTemplateSpec: { metadata: { type: 'ObjectMeta' }, spec: { type: 'WorkloadSpec' } },
  CronJobSpec: { jobTemplate: { type: 'JobTemplateSpec' } },
  ServiceSpec: {
    ports: { list: { type: 'map', mergeKey: 'port', keys: ['port', 'protocol'], keyDefaults: { protocol: 'TCP' } } },
  },
  ConditionsStatus: { conditions },
  NodeStatus: { conditions, addresses: { list: { type: 'map', mergeKey: 'type', keys: ['type'] } } },
  CRDSpec: { versions: { list: byName() } },
};

const ROOTS: Record<string, Record<string, TypeName>> = {
  Pod: { spec: 'PodSpec', status: 'ConditionsStatus' },
  Deployment: { spec: 'WorkloadSpec', status: 'ConditionsStatus' },
  ReplicaSet: { spec: 'WorkloadSpec', status: 'ConditionsStatus' },
  StatefulSet: { spec: 'WorkloadSpec', status: 'ConditionsStatus' },
  DaemonSet: { spec: 'WorkloadSpec', status: 'ConditionsStatus' },
  Job: { spec: 'WorkloadSpec', status: 'ConditionsStatus' },
  CronJob: { spec: 'CronJobSpec' },
  Service: { spec: 'ServiceSpec', status: 'ConditionsStatus' },
  Node: { status: 'NodeStatus' },
  Namespace: { status: 'ConditionsStatus' },
  PodDisruptionBudget: { status: 'ConditionsStatus' },
  CustomResourceDefinition: { spec: 'CRDSpec', status: 'ConditionsStatus' },
};

/**
 * A position in an object's type, walked one field at a time. `undefined` means "no schema
 * known below here": maps merge, lists are atomic.
 */
export type SchemaNode = TypeName | 'root' | undefined;

export interface SchemaCursor {
  kind: string;
  node: SchemaNode;
}

export function rootCursor(kind: string): SchemaCursor {
  return { kind, node: 'root' };
}

/** The cursor for a field of a map at `c`. */
export function fieldCursor(c: SchemaCursor, field: string): SchemaCursor {
  if (c.node === 'root') {
    if (field === 'metadata') return { kind: c.kind, node: 'ObjectMeta' };
    return { kind: c.kind, node: ROOTS[c.kind]?.[field] };
  }
  if (c.node === undefined) return { kind: c.kind, node: undefined };
  const f = TYPES[c.node][field];
  if (f && 'type' in f) return { kind: c.kind, node: f.type };
  return { kind: c.kind, node: undefined };
}

/** How the list in `field` of the map at `c` merges. */
export function listKind(c: SchemaCursor, field: string): ListKind {
  if (c.node === undefined || c.node === 'root') return { type: 'atomic' };
  const f = TYPES[c.node][field];
  return f && 'list' in f ? f.list : { type: 'atomic' };
}

/** The cursor for the items of a keyed list. */
export function itemCursor(c: SchemaCursor, list: ListKind): SchemaCursor {
  return { kind: c.kind, node: list.type === 'map' ? list.item : undefined };
}
