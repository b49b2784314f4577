/**
 * Typed views of the fields the controllers read and write. The API server has defaulted and
 * validated every stored object, so a stored Deployment can be read as a `Deployment`.
 */
import type { KubeObject } from '../api/object.js';

export interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
  lastUpdateTime?: string;
  lastProbeTime?: string | null;
  lastHeartbeatTime?: string;
  observedGeneration?: number;
}

export interface LabelSelectorSpec {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

export interface ContainerPort {
  containerPort: number;
  name?: string;
  protocol?: string;
}

/** A ConfigMap or Secret a pod refers to: by `name` (a Secret volume says `secretName`). */
export interface ConfigSource {
  name?: string;
  secretName?: string;
  optional?: boolean;
  /** A key of an env var's source. */
  key?: string;
  /** The keys a volume projects. */
  items?: { key: string }[];
}

export interface Container {
  name: string;
  image: string;
  ports?: ContainerPort[];
  readinessProbe?: { initialDelaySeconds?: number; periodSeconds?: number };
  env?: { name: string; valueFrom?: { configMapKeyRef?: ConfigSource; secretKeyRef?: ConfigSource } }[];
  envFrom?: { configMapRef?: ConfigSource; secretRef?: ConfigSource }[];
}

export interface Volume {
  name: string;
  configMap?: ConfigSource;
  secret?: ConfigSource;
  projected?: { sources?: { configMap?: ConfigSource; secret?: ConfigSource }[] };
}

export interface Toleration {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
  tolerationSeconds?: number;
}

export interface PodSpec {
  nodeName?: string;
  containers: Container[];
  initContainers?: Container[];
  volumes?: Volume[];
  restartPolicy?: 'Always' | 'OnFailure' | 'Never';
  nodeSelector?: Record<string, string>;
  tolerations?: Toleration[];
  terminationGracePeriodSeconds?: number;
  readinessGates?: { conditionType: string }[];
  affinity?: unknown;
  hostname?: string;
  subdomain?: string;
}

export interface ContainerState {
  waiting?: { reason: string; message?: string };
  running?: { startedAt: string };
  terminated?: {
    exitCode: number;
    reason: string;
    message?: string;
    startedAt?: string;
    finishedAt: string;
    containerID?: string;
  };
}

export interface ContainerStatus {
  name: string;
  image: string;
  imageID: string;
  containerID?: string;
  ready: boolean;
  started: boolean;
  restartCount: number;
  state: ContainerState;
  lastState: ContainerState;
}

export interface PodStatus {
  phase?: 'Pending' | 'Running' | 'Succeeded' | 'Failed' | 'Unknown';
  conditions?: Condition[];
  containerStatuses?: ContainerStatus[];
  initContainerStatuses?: ContainerStatus[];
  hostIP?: string;
  hostIPs?: { ip: string }[];
  podIP?: string;
  podIPs?: { ip: string }[];
  startTime?: string;
  qosClass?: string;
  reason?: string;
  message?: string;
  observedGeneration?: number;
}

export interface Pod extends KubeObject {
  spec: PodSpec;
  status?: PodStatus;
}

export interface PodTemplate {
  metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
  spec: PodSpec;
}

export interface RollingUpdate {
  maxSurge?: number | string;
  maxUnavailable?: number | string;
  partition?: number;
}

export interface Deployment extends KubeObject {
  spec: {
    replicas: number;
    selector: LabelSelectorSpec;
    template: PodTemplate;
    strategy: { type: 'RollingUpdate' | 'Recreate'; rollingUpdate?: RollingUpdate };
    minReadySeconds?: number;
    revisionHistoryLimit: number;
    progressDeadlineSeconds?: number;
    paused?: boolean;
  };
  status?: {
    observedGeneration?: number;
    replicas?: number;
    updatedReplicas?: number;
    readyReplicas?: number;
    availableReplicas?: number;
    unavailableReplicas?: number;
    terminatingReplicas?: number;
    conditions?: Condition[];
    collisionCount?: number;
  };
}

export interface ReplicaSet extends KubeObject {
  spec: { replicas: number; selector: LabelSelectorSpec; template: PodTemplate; minReadySeconds?: number };
  status?: {
    replicas: number;
    fullyLabeledReplicas?: number;
    readyReplicas?: number;
    availableReplicas?: number;
    terminatingReplicas?: number;
    observedGeneration?: number;
    conditions?: Condition[];
  };
}

export interface StatefulSet extends KubeObject {
  spec: {
    replicas: number;
    selector: LabelSelectorSpec;
    template: PodTemplate;
    serviceName?: string;
    podManagementPolicy: 'OrderedReady' | 'Parallel';
    updateStrategy: { type: 'RollingUpdate' | 'OnDelete'; rollingUpdate?: RollingUpdate };
    minReadySeconds?: number;
    revisionHistoryLimit: number;
  };
  status?: Record<string, unknown>;
}

export interface DaemonSet extends KubeObject {
  spec: {
    selector: LabelSelectorSpec;
    template: PodTemplate;
    updateStrategy: { type: 'RollingUpdate' | 'OnDelete'; rollingUpdate?: RollingUpdate };
    minReadySeconds?: number;
    revisionHistoryLimit: number;
  };
  status?: Record<string, unknown>;
}

export interface Job extends KubeObject {
  spec: {
    parallelism: number;
    completions?: number;
    backoffLimit: number;
    activeDeadlineSeconds?: number;
    suspend?: boolean;
    selector: LabelSelectorSpec;
    template: PodTemplate;
    ttlSecondsAfterFinished?: number;
  };
  status?: {
    active?: number;
    ready?: number;
    succeeded?: number;
    failed?: number;
    terminating?: number;
    startTime?: string;
    completionTime?: string;
    conditions?: Condition[];
    uncountedTerminatedPods?: Record<string, unknown>;
  };
}

export interface ServicePort {
  name?: string;
  port: number;
  targetPort?: number | string;
  protocol?: string;
  nodePort?: number;
}

export interface Service extends KubeObject {
  spec: { selector?: Record<string, string>; ports?: ServicePort[]; type?: string; clusterIP?: string };
}

export interface Node extends KubeObject {
  spec: {
    unschedulable?: boolean;
    taints?: { key: string; value?: string; effect: string; timeAdded?: string }[];
    podCIDR?: string;
  };
  status?: { conditions?: Condition[]; addresses?: { type: string; address: string }[] };
}

export interface PodDisruptionBudget extends KubeObject {
  spec: {
    minAvailable?: number | string;
    maxUnavailable?: number | string;
    selector?: LabelSelectorSpec;
    unhealthyPodEvictionPolicy?: string;
  };
  status?: Record<string, unknown>;
}

export function condition(conds: readonly Condition[] | undefined, type: string): Condition | undefined {
  return conds?.find((c) => c.type === type);
}

export function isPodReady(p: Pod): boolean {
  return condition(p.status?.conditions, 'Ready')?.status === 'True';
}

export function isPodTerminal(p: Pod): boolean {
  return p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed';
}

/** Counted by its controller: not finished and not being deleted. */
export function isPodActive(p: Pod): boolean {
  return !isPodTerminal(p) && p.metadata.deletionTimestamp === undefined;
}
