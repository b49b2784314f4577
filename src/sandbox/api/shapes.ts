/**
 * The types of the fields the sandbox reads, checked where objects come in (request bodies and
 * patch results), as the API server's decoder checks them: `replicas: "3"` is a 400 with Go's
 * wording, not a string that a controller would later trip over. Fields not listed here are
 * stored as given.
 */
import { badRequest } from './errors.js';
import { isMap } from '../json.js';
import type { ResourceType } from './resources.js';

type Scalar = 'string' | 'int32' | 'int64' | 'bool' | 'intOrString';
export type Shape = Scalar | { map: Scalar } | { list: Shape } | Struct;

interface Struct {
  struct: string;
  fields: Readonly<Record<string, Shape>>;
}

const s = (struct: string, fields: Record<string, Shape>): Struct => ({ struct, fields });
const strings = { map: 'string' } as const;
const stringList = { list: 'string' } as const;

const OBJECT_META = s('ObjectMeta', {
  name: 'string',
  generateName: 'string',
  namespace: 'string',
  resourceVersion: 'string',
  generation: 'int64',
  deletionGracePeriodSeconds: 'int64',
  labels: strings,
  annotations: strings,
  finalizers: stringList,
  ownerReferences: {
    list: s('OwnerReference', {
      apiVersion: 'string',
      kind: 'string',
      name: 'string',
      uid: 'string',
      controller: 'bool',
      blockOwnerDeletion: 'bool',
    }),
  },
});

const SELECTOR = s('LabelSelector', {
  matchLabels: strings,
  matchExpressions: { list: s('LabelSelectorRequirement', { key: 'string', operator: 'string', values: stringList }) },
});

const CONTAINER = s('Container', {
  name: 'string',
  image: 'string',
  ports: { list: s('ContainerPort', { name: 'string', containerPort: 'int32', protocol: 'string' }) },
  env: { list: s('EnvVar', { name: 'string', value: 'string' }) },
  readinessProbe: s('Probe', { initialDelaySeconds: 'int32', periodSeconds: 'int32' }),
});

const POD_SPEC = s('PodSpec', {
  containers: { list: CONTAINER },
  initContainers: { list: CONTAINER },
  nodeName: 'string',
  restartPolicy: 'string',
  serviceAccountName: 'string',
  nodeSelector: strings,
  hostname: 'string',
  subdomain: 'string',
  terminationGracePeriodSeconds: 'int64',
  tolerations: {
    list: s('Toleration', {
      key: 'string',
      operator: 'string',
      value: 'string',
      effect: 'string',
      tolerationSeconds: 'int64',
    }),
  },
  readinessGates: { list: s('PodReadinessGate', { conditionType: 'string' }) },
});

const TEMPLATE = s('PodTemplateSpec', { metadata: OBJECT_META, spec: POD_SPEC });
const CONDITIONS = { list: s('Condition', { type: 'string', status: 'string', reason: 'string', message: 'string' }) };
const ROLLING = s('RollingUpdate', { maxSurge: 'intOrString', maxUnavailable: 'intOrString', partition: 'int32' });
const JOB_SPEC = s('JobSpec', {
  parallelism: 'int32',
  completions: 'int32',
  backoffLimit: 'int32',
  activeDeadlineSeconds: 'int64',
  ttlSecondsAfterFinished: 'int32',
  suspend: 'bool',
  manualSelector: 'bool',
  selector: SELECTOR,
  template: TEMPLATE,
});

const KINDS: Record<string, Record<string, Shape>> = {
  Pod: {
    spec: POD_SPEC,
    status: s('PodStatus', {
      phase: 'string',
      podIP: 'string',
      hostIP: 'string',
      conditions: CONDITIONS,
      containerStatuses: { list: s('ContainerStatus', { name: 'string', ready: 'bool', restartCount: 'int32' }) },
    }),
  },
  Deployment: {
    spec: s('DeploymentSpec', {
      replicas: 'int32',
      selector: SELECTOR,
      template: TEMPLATE,
      strategy: s('DeploymentStrategy', { type: 'string', rollingUpdate: ROLLING }),
      minReadySeconds: 'int32',
      revisionHistoryLimit: 'int32',
      progressDeadlineSeconds: 'int32',
      paused: 'bool',
    }),
    status: s('DeploymentStatus', {
      replicas: 'int32',
      updatedReplicas: 'int32',
      readyReplicas: 'int32',
      availableReplicas: 'int32',
      conditions: CONDITIONS,
    }),
  },
  ReplicaSet: {
    spec: s('ReplicaSetSpec', { replicas: 'int32', selector: SELECTOR, template: TEMPLATE, minReadySeconds: 'int32' }),
  },
  StatefulSet: {
    spec: s('StatefulSetSpec', {
      replicas: 'int32',
      selector: SELECTOR,
      template: TEMPLATE,
      serviceName: 'string',
      podManagementPolicy: 'string',
      updateStrategy: s('StatefulSetUpdateStrategy', { type: 'string', rollingUpdate: ROLLING }),
      minReadySeconds: 'int32',
      revisionHistoryLimit: 'int32',
    }),
  },
  DaemonSet: {
    spec: s('DaemonSetSpec', {
      selector: SELECTOR,
      template: TEMPLATE,
      updateStrategy: s('DaemonSetUpdateStrategy', { type: 'string', rollingUpdate: ROLLING }),
      minReadySeconds: 'int32',
      revisionHistoryLimit: 'int32',
    }),
  },
  Job: { spec: JOB_SPEC },
  CronJob: {
    spec: s('CronJobSpec', {
      schedule: 'string',
      suspend: 'bool',
      jobTemplate: s('JobTemplateSpec', { metadata: OBJECT_META, spec: JOB_SPEC }),
    }),
  },
  Service: {
    spec: s('ServiceSpec', {
      type: 'string',
      clusterIP: 'string',
      selector: strings,
      ports: {
        list: s('ServicePort', {
          name: 'string',
          port: 'int32',
          targetPort: 'intOrString',
          protocol: 'string',
          nodePort: 'int32',
        }),
      },
    }),
  },
  Node: {
    spec: s('NodeSpec', {
      unschedulable: 'bool',
      podCIDR: 'string',
      taints: { list: s('Taint', { key: 'string', value: 'string', effect: 'string' }) },
    }),
  },
  Namespace: { spec: s('NamespaceSpec', { finalizers: stringList }) },
  PodDisruptionBudget: {
    spec: s('PodDisruptionBudgetSpec', {
      minAvailable: 'intOrString',
      maxUnavailable: 'intOrString',
      selector: SELECTOR,
      unhealthyPodEvictionPolicy: 'string',
    }),
  },
  ConfigMap: { data: strings, binaryData: strings, immutable: 'bool' },
  Secret: { data: strings, stringData: strings, type: 'string', immutable: 'bool' },
  Lease: {
    spec: s('LeaseSpec', {
      holderIdentity: 'string',
      leaseDurationSeconds: 'int32',
      acquireTime: 'string',
      renewTime: 'string',
      leaseTransitions: 'int32',
    }),
  },
};

/** The JSON shape of a kind's top-level fields, as far as the sandbox checks them. */
export function kindShape(kind: string): Readonly<Record<string, Shape>> | undefined {
  return KINDS[kind];
}

const GO_TYPE: Record<Scalar, string> = {
  string: 'string',
  int32: 'int32',
  int64: 'int64',
  bool: 'bool',
  intOrString: 'intstr.IntOrString',
};

function jsonType(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  if (typeof v === 'object') return 'object';
  return typeof v === 'boolean' ? 'bool' : typeof v;
}

function scalarFits(t: Scalar, v: unknown): boolean {
  switch (t) {
    case 'string':
      return typeof v === 'string';
    case 'bool':
      return typeof v === 'boolean';
    case 'int32':
    case 'int64':
      return typeof v === 'number' && Number.isInteger(v) && (t === 'int64' || Math.abs(v) <= 2147483647);
    case 'intOrString':
      return typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v));
  }
}

class ShapeError extends Error {
  constructor(
    readonly got: string,
    readonly struct: string,
    readonly path: string,
    readonly want: string,
  ) {
    super(`json: cannot unmarshal ${got} into Go struct field ${struct}.${path} of type ${want}`);
  }
}

function typeName(shape: Shape): string {
  if (typeof shape === 'string') return GO_TYPE[shape];
  if ('map' in shape) return `map[string]${GO_TYPE[shape.map]}`;
  if ('list' in shape) return `[]${typeName(shape.list)}`;
  return `v1.${shape.struct}`;
}

function check(v: unknown, shape: Shape, struct: string, path: string): void {
  if (v === null || v === undefined) return;
  const fail = () => {
    throw new ShapeError(jsonType(v), struct, path, typeName(shape));
  };
  if (typeof shape === 'string') {
    if (!scalarFits(shape, v)) fail();
    return;
  }
  if ('map' in shape) {
    if (!isMap(v)) fail();
    for (const [k, x] of Object.entries(v as Record<string, unknown>))
      if (x !== null && !scalarFits(shape.map, x))
        throw new ShapeError(jsonType(x), struct, `${path}.${k}`, GO_TYPE[shape.map]);
    return;
  }
  if ('list' in shape) {
    if (!Array.isArray(v)) fail();
    for (const item of v as unknown[]) check(item, shape.list, struct, path);
    return;
  }
  if (!isMap(v)) fail();
  for (const [k, fieldShape] of Object.entries(shape.fields))
    check((v as Record<string, unknown>)[k], fieldShape, shape.struct, `${path}.${k}`);
}

/** Throws the API server's 400 when a field the sandbox reads has the wrong JSON type. */
export function checkShape(r: ResourceType, o: Record<string, unknown>): void {
  try {
    check(o.metadata, OBJECT_META, r.kind, 'metadata');
    const fields = KINDS[r.kind] ?? {};
    for (const [k, shape] of Object.entries(fields)) check(o[k], shape, r.kind, k);
  } catch (e) {
    if (e instanceof ShapeError)
      throw badRequest(`${r.kind} in version "${r.version}" cannot be handled as a ${r.kind}: ${e.message}`);
    throw e;
  }
  if (r.kind === 'Secret' && isMap(o.data)) {
    for (const [k, v] of Object.entries(o.data)) {
      if (typeof v === 'string' && !/^[A-Za-z0-9+/]*={0,2}$/.test(v.replace(/\s/g, ''))) {
        throw badRequest(
          `Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte ${firstBadByte(v)} (key ${k})`,
        );
      }
    }
  }
}

function firstBadByte(v: string): number {
  const i = [...v].findIndex((c) => !/[A-Za-z0-9+/=\s]/.test(c));
  return i < 0 ? v.length : i;
}
