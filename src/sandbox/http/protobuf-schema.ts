/**
 * The protobuf field numbers of the Kubernetes messages `kubectl create` sends (namespace,
 * configmap, secret, serviceaccount, service, deployment, job, cronjob, poddisruptionbudget,
 * ingress), as the API's generated.proto files number them. Only the fields those commands can
 * set are listed; the decoder refuses anything else rather than drop it.
 *
 * A field is [json name, type] or [json name, type, flags]: `r` repeated; `i` inline (its fields
 * go into the parent's JSON, as Go's `json:",inline"`); `z` a pointer in Go, so a zero value is
 * kept (elsewhere a zero is the same as unset and left out).
 */

import { ACCESS_KINDS, ACCESS_MESSAGES } from './protobuf-schema-access.js';
import { POD_MESSAGES } from './protobuf-schema-pod.js';

export type ScalarType = 'string' | 'bytes' | 'bool' | 'int32' | 'int64' | 'time' | 'quantity' | 'intOrString';
export type MapType = 'map:string' | 'map:bytes' | 'map:quantity';
export type FieldType = ScalarType | MapType | `msg:${string}`;
export type FieldSpec = readonly [string, FieldType] | readonly [string, FieldType, string];

type Message = Readonly<Record<number, FieldSpec>>;

const META: Record<string, Message> = {
  ObjectMeta: {
    1: ['name', 'string'],
    2: ['generateName', 'string'],
    3: ['namespace', 'string'],
    5: ['uid', 'string'],
    6: ['resourceVersion', 'string'],
    7: ['generation', 'int64'],
    8: ['creationTimestamp', 'time'],
    10: ['deletionGracePeriodSeconds', 'int64', 'z'],
    11: ['labels', 'map:string'],
    12: ['annotations', 'map:string'],
    13: ['ownerReferences', 'msg:OwnerReference', 'r'],
    14: ['finalizers', 'string', 'r'],
  },
  OwnerReference: {
    5: ['apiVersion', 'string'],
    1: ['kind', 'string'],
    3: ['name', 'string'],
    4: ['uid', 'string'],
    6: ['controller', 'bool', 'z'],
    7: ['blockOwnerDeletion', 'bool', 'z'],
  },
  LabelSelector: { 1: ['matchLabels', 'map:string'], 2: ['matchExpressions', 'msg:LabelSelectorRequirement', 'r'] },
  LabelSelectorRequirement: { 1: ['key', 'string'], 2: ['operator', 'string'], 3: ['values', 'string', 'r'] },
};

const CORE: Record<string, Message> = {
  Namespace: { 1: ['metadata', 'msg:ObjectMeta'], 2: ['spec', 'msg:NamespaceSpec'] },
  NamespaceSpec: { 1: ['finalizers', 'string', 'r'] },
  ConfigMap: {
    1: ['metadata', 'msg:ObjectMeta'],
    2: ['data', 'map:string'],
    3: ['binaryData', 'map:bytes'],
    4: ['immutable', 'bool', 'z'],
  },
  Secret: {
    1: ['metadata', 'msg:ObjectMeta'],
    2: ['data', 'map:bytes'],
    3: ['type', 'string'],
    4: ['stringData', 'map:string'],
    5: ['immutable', 'bool', 'z'],
  },
  ServiceAccount: {
    1: ['metadata', 'msg:ObjectMeta'],
    3: ['imagePullSecrets', 'msg:LocalObjectReference', 'r'],
    4: ['automountServiceAccountToken', 'bool', 'z'],
  },
  LocalObjectReference: { 1: ['name', 'string'] },
  Service: { 1: ['metadata', 'msg:ObjectMeta'], 2: ['spec', 'msg:ServiceSpec'] },
  ServiceSpec: {
    1: ['ports', 'msg:ServicePort', 'r'],
    2: ['selector', 'map:string'],
    3: ['clusterIP', 'string'],
    4: ['type', 'string'],
    5: ['externalIPs', 'string', 'r'],
    7: ['sessionAffinity', 'string'],
    10: ['externalName', 'string'],
    18: ['clusterIPs', 'string', 'r'],
  },
  ServicePort: {
    1: ['name', 'string'],
    2: ['protocol', 'string'],
    3: ['port', 'int32'],
    4: ['targetPort', 'intOrString'],
    5: ['nodePort', 'int32'],
  },
  PodTemplateSpec: { 1: ['metadata', 'msg:ObjectMeta'], 2: ['spec', 'msg:PodSpec'] },
  PodSpec: {
    2: ['containers', 'msg:Container', 'r'],
    3: ['restartPolicy', 'string'],
    4: ['terminationGracePeriodSeconds', 'int64', 'z'],
    6: ['dnsPolicy', 'string'],
    7: ['nodeSelector', 'map:string'],
    8: ['serviceAccountName', 'string'],
    10: ['nodeName', 'string'],
    20: ['initContainers', 'msg:Container', 'r'],
    22: ['tolerations', 'msg:Toleration', 'r'],
  },
  Container: {
    1: ['name', 'string'],
    2: ['image', 'string'],
    3: ['command', 'string', 'r'],
    4: ['args', 'string', 'r'],
    6: ['ports', 'msg:ContainerPort', 'r'],
    7: ['env', 'msg:EnvVar', 'r'],
    8: ['resources', 'msg:ResourceRequirements'],
    13: ['terminationMessagePath', 'string'],
    14: ['imagePullPolicy', 'string'],
    20: ['terminationMessagePolicy', 'string'],
  },
  ContainerPort: { 1: ['name', 'string'], 3: ['containerPort', 'int32'], 4: ['protocol', 'string'] },
  EnvVar: { 1: ['name', 'string'], 2: ['value', 'string'] },
  ResourceRequirements: {
    1: ['limits', 'map:quantity'],
    2: ['requests', 'map:quantity'],
    3: ['claims', 'msg:Opaque', 'r'],
  },
  Toleration: {
    1: ['key', 'string'],
    2: ['operator', 'string'],
    3: ['value', 'string'],
    4: ['effect', 'string'],
    5: ['tolerationSeconds', 'int64', 'z'],
  },
};

const WORKLOADS: Record<string, Message> = {
  Deployment: { 1: ['metadata', 'msg:ObjectMeta'], 2: ['spec', 'msg:DeploymentSpec'] },
  DeploymentSpec: {
    1: ['replicas', 'int32', 'z'],
    2: ['selector', 'msg:LabelSelector'],
    3: ['template', 'msg:PodTemplateSpec'],
    4: ['strategy', 'msg:DeploymentStrategy'],
    5: ['minReadySeconds', 'int32'],
    6: ['revisionHistoryLimit', 'int32', 'z'],
    7: ['paused', 'bool'],
    9: ['progressDeadlineSeconds', 'int32', 'z'],
  },
  DeploymentStrategy: { 1: ['type', 'string'], 2: ['rollingUpdate', 'msg:RollingUpdateDeployment'] },
  RollingUpdateDeployment: { 1: ['maxUnavailable', 'intOrString'], 2: ['maxSurge', 'intOrString'] },
  Job: { 1: ['metadata', 'msg:ObjectMeta'], 2: ['spec', 'msg:JobSpec'] },
  JobSpec: {
    1: ['parallelism', 'int32', 'z'],
    2: ['completions', 'int32', 'z'],
    3: ['activeDeadlineSeconds', 'int64', 'z'],
    4: ['selector', 'msg:LabelSelector'],
    5: ['manualSelector', 'bool', 'z'],
    6: ['template', 'msg:PodTemplateSpec'],
    7: ['backoffLimit', 'int32', 'z'],
    8: ['ttlSecondsAfterFinished', 'int32', 'z'],
    9: ['completionMode', 'string'],
    10: ['suspend', 'bool', 'z'],
  },
  JobTemplateSpec: { 1: ['metadata', 'msg:ObjectMeta'], 2: ['spec', 'msg:JobSpec'] },
  CronJob: { 1: ['metadata', 'msg:ObjectMeta'], 2: ['spec', 'msg:CronJobSpec'] },
  CronJobSpec: {
    1: ['schedule', 'string'],
    2: ['startingDeadlineSeconds', 'int64', 'z'],
    3: ['concurrencyPolicy', 'string'],
    4: ['suspend', 'bool', 'z'],
    5: ['jobTemplate', 'msg:JobTemplateSpec'],
    6: ['successfulJobsHistoryLimit', 'int32', 'z'],
    7: ['failedJobsHistoryLimit', 'int32', 'z'],
    8: ['timeZone', 'string'],
  },
  PodDisruptionBudget: { 1: ['metadata', 'msg:ObjectMeta'], 2: ['spec', 'msg:PodDisruptionBudgetSpec'] },
  PodDisruptionBudgetSpec: {
    1: ['minAvailable', 'intOrString'],
    2: ['selector', 'msg:LabelSelector'],
    3: ['maxUnavailable', 'intOrString'],
    4: ['unhealthyPodEvictionPolicy', 'string'],
  },
  Ingress: { 1: ['metadata', 'msg:ObjectMeta'], 2: ['spec', 'msg:IngressSpec'] },
  IngressSpec: {
    1: ['defaultBackend', 'msg:IngressBackend'],
    2: ['tls', 'msg:IngressTLS', 'r'],
    3: ['rules', 'msg:IngressRule', 'r'],
    4: ['ingressClassName', 'string'],
  },
  IngressRule: { 1: ['host', 'string'], 2: ['ingressRuleValue', 'msg:IngressRuleValue', 'i'] },
  IngressRuleValue: { 1: ['http', 'msg:HTTPIngressRuleValue'] },
  HTTPIngressRuleValue: { 1: ['paths', 'msg:HTTPIngressPath', 'r'] },
  HTTPIngressPath: { 1: ['path', 'string'], 2: ['backend', 'msg:IngressBackend'], 3: ['pathType', 'string'] },
  IngressBackend: { 4: ['service', 'msg:IngressServiceBackend'] },
  IngressServiceBackend: { 1: ['name', 'string'], 2: ['port', 'msg:ServiceBackendPort'] },
  ServiceBackendPort: { 1: ['name', 'string'], 2: ['number', 'int32'] },
  IngressTLS: { 1: ['hosts', 'string', 'r'], 2: ['secretName', 'string'] },
};

export const MESSAGES: Readonly<Record<string, Message>> = {
  ...META,
  ...CORE,
  ...WORKLOADS,
  ...POD_MESSAGES,
  ...ACCESS_MESSAGES,
};

/** The kinds whose protobuf bodies the sandbox reads: their top-level message. */
export const PROTOBUF_KINDS: ReadonlySet<string> = new Set([
  'Namespace',
  'ConfigMap',
  'Secret',
  'ServiceAccount',
  'Service',
  'Deployment',
  'Job',
  'CronJob',
  'PodDisruptionBudget',
  'Ingress',
  ...ACCESS_KINDS,
]);
