/**
 * The defaults the API server fills in, so that what clients read back (and what kubectl's
 * rollout rules and the controllers look at) is what a real cluster would show. Each function
 * changes the fresh object it is given.
 */
import { ensureMap, isMap, type JsonMap } from '../json.js';
import type { KubeObject } from './object.js';

function setDefault(m: JsonMap, key: string, value: unknown): void {
  if (m[key] === undefined || m[key] === null) m[key] = value;
}

function imageTag(image: string): string | undefined {
  const at = image.indexOf('@');
  if (at >= 0) return 'digest';
  const lastSlash = image.lastIndexOf('/');
  const colon = image.indexOf(':', lastSlash + 1);
  return colon < 0 ? undefined : image.slice(colon + 1);
}

function defaultContainer(c: JsonMap): void {
  const image = typeof c.image === 'string' ? c.image : '';
  const tag = imageTag(image);
  setDefault(c, 'imagePullPolicy', tag === undefined || tag === 'latest' ? 'Always' : 'IfNotPresent');
  setDefault(c, 'terminationMessagePath', '/dev/termination-log');
  setDefault(c, 'terminationMessagePolicy', 'File');
  setDefault(c, 'resources', {});
  if (Array.isArray(c.ports)) for (const p of c.ports) if (isMap(p)) setDefault(p, 'protocol', 'TCP');
  for (const probe of ['readinessProbe', 'livenessProbe', 'startupProbe']) {
    const p = c[probe];
    if (!isMap(p)) continue;
    setDefault(p, 'timeoutSeconds', 1);
    setDefault(p, 'periodSeconds', 10);
    setDefault(p, 'successThreshold', 1);
    setDefault(p, 'failureThreshold', 3);
  }
}

/** PodSpec defaults; `pod` adds what admission sets on Pods only (not on templates). */
function defaultPodSpec(spec: JsonMap, pod: boolean): void {
  setDefault(spec, 'restartPolicy', 'Always');
  setDefault(spec, 'dnsPolicy', 'ClusterFirst');
  setDefault(spec, 'schedulerName', 'default-scheduler');
  setDefault(spec, 'terminationGracePeriodSeconds', 30);
  setDefault(spec, 'securityContext', {});
  for (const list of ['containers', 'initContainers']) {
    const cs = spec[list];
    if (Array.isArray(cs)) for (const c of cs) if (isMap(c)) defaultContainer(c);
  }
  if (!pod) return;
  const sa =
    typeof spec.serviceAccountName === 'string'
      ? spec.serviceAccountName
      : typeof spec.serviceAccount === 'string'
        ? spec.serviceAccount
        : 'default';
  spec.serviceAccountName = sa;
  spec.serviceAccount = sa;
  setDefault(spec, 'enableServiceLinks', true);
  setDefault(spec, 'preemptionPolicy', 'PreemptLowerPriority');
  setDefault(spec, 'priority', 0);
  const tolerations = Array.isArray(spec.tolerations) ? spec.tolerations : [];
  for (const key of ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable']) {
    if (!tolerations.some((t) => isMap(t) && t.key === key)) {
      tolerations.push({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 });
    }
  }
  spec.tolerations = tolerations;
}

function defaultTemplate(spec: JsonMap): void {
  const tpl = ensureMap(spec, ['template']);
  ensureMap(tpl, ['metadata']);
  defaultPodSpec(ensureMap(tpl, ['spec']), false);
}

function qosClass(spec: JsonMap): string {
  const cs = Array.isArray(spec.containers) ? spec.containers.filter(isMap) : [];
  let anySet = false;
  let guaranteed = cs.length > 0;
  for (const c of cs) {
    const res = isMap(c.resources) ? c.resources : {};
    const req = isMap(res.requests) ? res.requests : {};
    const lim = isMap(res.limits) ? res.limits : {};
    if (Object.keys(req).length > 0 || Object.keys(lim).length > 0) anySet = true;
    for (const r of ['cpu', 'memory']) {
      if (lim[r] === undefined || (req[r] !== undefined && req[r] !== lim[r])) guaranteed = false;
    }
  }
  if (!anySet) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}

const DEFAULTERS: Record<string, (o: KubeObject, spec: JsonMap) => void> = {
  Pod(o, spec) {
    defaultPodSpec(spec, true);
    const status = isMap(o.status) ? o.status : (o.status = {});
    setDefault(status, 'phase', 'Pending');
    setDefault(status, 'qosClass', qosClass(spec));
  },
  Deployment(_o, spec) {
    setDefault(spec, 'replicas', 1);
    const strategy = ensureMap(spec, ['strategy']);
    setDefault(strategy, 'type', 'RollingUpdate');
    if (strategy.type === 'RollingUpdate') {
      const ru = ensureMap(strategy, ['rollingUpdate']);
      setDefault(ru, 'maxSurge', '25%');
      setDefault(ru, 'maxUnavailable', '25%');
    }
    setDefault(spec, 'revisionHistoryLimit', 10);
    setDefault(spec, 'progressDeadlineSeconds', 600);
    defaultTemplate(spec);
  },
  ReplicaSet(_o, spec) {
    setDefault(spec, 'replicas', 1);
    defaultTemplate(spec);
  },
  StatefulSet(_o, spec) {
    setDefault(spec, 'replicas', 1);
    setDefault(spec, 'podManagementPolicy', 'OrderedReady');
    setDefault(spec, 'revisionHistoryLimit', 10);
    if (!isMap(spec.updateStrategy) || spec.updateStrategy.type === undefined) {
      spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { partition: 0 } };
    }
    setDefault(spec, 'persistentVolumeClaimRetentionPolicy', { whenDeleted: 'Retain', whenScaled: 'Retain' });
    defaultTemplate(spec);
  },
  DaemonSet(_o, spec) {
    const strategy = ensureMap(spec, ['updateStrategy']);
    setDefault(strategy, 'type', 'RollingUpdate');
    if (strategy.type === 'RollingUpdate') {
      const ru = ensureMap(strategy, ['rollingUpdate']);
      setDefault(ru, 'maxUnavailable', 1);
      setDefault(ru, 'maxSurge', 0);
    }
    setDefault(spec, 'revisionHistoryLimit', 10);
    defaultTemplate(spec);
  },
  Job(_o, spec) {
    if (spec.completions === undefined && spec.parallelism === undefined) spec.completions = 1;
    setDefault(spec, 'parallelism', 1);
    setDefault(spec, 'backoffLimit', 6);
    setDefault(spec, 'completionMode', 'NonIndexed');
    setDefault(spec, 'suspend', false);
    setDefault(spec, 'podReplacementPolicy', 'TerminatingOrFailed');
    defaultTemplate(spec);
  },
  CronJob(_o, spec) {
    setDefault(spec, 'concurrencyPolicy', 'Allow');
    setDefault(spec, 'suspend', false);
    setDefault(spec, 'successfulJobsHistoryLimit', 3);
    setDefault(spec, 'failedJobsHistoryLimit', 1);
    const jobSpec = ensureMap(spec, ['jobTemplate', 'spec']);
    defaultTemplate(jobSpec);
  },
  Service(_o, spec) {
    setDefault(spec, 'type', 'ClusterIP');
    setDefault(spec, 'sessionAffinity', 'None');
    if (spec.type !== 'ExternalName') {
      setDefault(spec, 'ipFamilies', ['IPv4']);
      setDefault(spec, 'ipFamilyPolicy', 'SingleStack');
      setDefault(spec, 'internalTrafficPolicy', 'Cluster');
    }
    if (spec.type === 'NodePort' || spec.type === 'LoadBalancer') setDefault(spec, 'externalTrafficPolicy', 'Cluster');
    if (Array.isArray(spec.ports)) {
      for (const p of spec.ports) {
        if (!isMap(p)) continue;
        setDefault(p, 'protocol', 'TCP');
        setDefault(p, 'targetPort', p.port);
      }
    }
  },
  Namespace(o, spec) {
    setDefault(spec, 'finalizers', ['kubernetes']);
    const status = isMap(o.status) ? o.status : (o.status = {});
    setDefault(status, 'phase', 'Active');
    o.metadata.labels = { ...o.metadata.labels, 'kubernetes.io/metadata.name': o.metadata.name ?? '' };
  },
};

export function applyDefaults(o: KubeObject): void {
  const d = DEFAULTERS[o.kind];
  if (d) d(o, ensureMap(o, ['spec']));
  if (o.kind === 'Secret') defaultSecret(o);
}

function defaultSecret(o: KubeObject): void {
  if (o.type === undefined) o.type = 'Opaque';
  if (isMap(o.stringData)) {
    const data = isMap(o.data) ? o.data : {};
    for (const [k, v] of Object.entries(o.stringData)) data[k] = Buffer.from(String(v), 'utf8').toString('base64');
    o.data = data;
    delete o.stringData;
  }
}
