/**
 * An object described, after `kubectl describe`: what it is and where, its status (replicas,
 * conditions; a pod's phase, node, IP and each container's state, last termination and
 * restarts), the pod template's important fields (containers with image, ports, probes,
 * resources, environment and mounts; volumes, service account, node selector), a workload's
 * pods, then the events of the object and of its pods, newest first, Warnings in the danger
 * tone. Pure: lines of text for a scrolled view.
 */
import type { KubeObject } from '../../model/kube-object.js';
import { asObject, type Attributes } from '../../model/resource.js';
import { ageOf } from '../../app/console/age.js';
import { podRow } from '../../app/console/pod-rows.js';
import type { DiffLine } from './diff-lines.js';

const arr = (x: unknown): Attributes[] => (Array.isArray(x) ? x.map(asObject) : []);
const str = (x: unknown): string | undefined =>
  typeof x === 'string' && x !== '' ? x : typeof x === 'number' ? String(x) : undefined;
const pairs = (o: unknown): string =>
  Object.entries(asObject(o))
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(',') || '<none>';

/** `Label:` padded, as kubectl lines its fields up. */
const field = (indent: number, label: string, value: string, pad = 14): DiffLine => ({
  text: `${' '.repeat(indent)}${`${label}:`.padEnd(Math.max(pad, label.length + 2))}${value}`,
});
const heading = (indent: number, text: string): DiffLine => ({
  text: `${' '.repeat(indent)}${text}`,
  bold: indent === 0,
});

function probeText(p: Attributes): string {
  const how = p.httpGet
    ? `http-get ${str(asObject(p.httpGet).scheme)?.toLowerCase() ?? 'http'}://${str(asObject(p.httpGet).host) ?? ''}:${str(asObject(p.httpGet).port) ?? ''}${str(asObject(p.httpGet).path) ?? '/'}`
    : p.tcpSocket
      ? `tcp-socket :${str(asObject(p.tcpSocket).port) ?? ''}`
      : p.exec
        ? `exec [${arr(asObject(p.exec).command).length ? (asObject(p.exec).command as unknown[]).join(' ') : ''}]`
        : p.grpc
          ? `grpc :${str(asObject(p.grpc).port) ?? ''}`
          : 'unknown';
  return `${how} delay=${Number(p.initialDelaySeconds ?? 0)}s timeout=${Number(p.timeoutSeconds ?? 1)}s period=${Number(p.periodSeconds ?? 10)}s #success=${Number(p.successThreshold ?? 1)} #failure=${Number(p.failureThreshold ?? 3)}`;
}

function envText(e: Attributes): string {
  if (e.value !== undefined) return `${String(e.name)}=${String(e.value)}`;
  const from = asObject(e.valueFrom);
  if (from.secretKeyRef)
    return `${String(e.name)} from secret ${str(asObject(from.secretKeyRef).name)} key ${str(asObject(from.secretKeyRef).key)}`;
  if (from.configMapKeyRef)
    return `${String(e.name)} from config map ${str(asObject(from.configMapKeyRef).name)} key ${str(asObject(from.configMapKeyRef).key)}`;
  if (from.fieldRef) return `${String(e.name)} from field ${str(asObject(from.fieldRef).fieldPath)}`;
  return `${String(e.name)} (from a reference)`;
}

/** A container of a pod spec, with its live status when the object is a pod. */
function containerLines(c: Attributes, status: Attributes | undefined, indent: number, now: number): DiffLine[] {
  const i = indent + 2;
  const lines: DiffLine[] = [heading(indent, `${String(c.name)}:`)];
  lines.push(field(i, 'Image', str(c.image) ?? '<none>'));
  const ports = arr(c.ports).map(
    (p) => `${String(p.containerPort)}/${str(p.protocol) ?? 'TCP'}${p.name ? ` (${String(p.name)})` : ''}`,
  );
  lines.push(field(i, 'Ports', ports.join(', ') || '<none>'));
  if (arr(c.command).length || Array.isArray(c.command))
    lines.push(field(i, 'Command', (c.command as unknown[]).join(' ')));
  if (Array.isArray(c.args)) lines.push(field(i, 'Args', (c.args as unknown[]).join(' ')));
  if (status) {
    const state = asObject(status.state);
    const [name, detail] = Object.entries(state)[0] ?? ['unknown', {}];
    const d = asObject(detail);
    const why = str(d.reason)
      ? ` (${str(d.reason)}${d.exitCode !== undefined ? `, exit code ${String(d.exitCode)}` : ''})`
      : '';
    const since = str(d.startedAt) ?? str(d.finishedAt);
    lines.push(
      field(
        i,
        'State',
        `${name[0]!.toUpperCase()}${name.slice(1)}${why}${since ? `, ${ageOf(since, now)} ago` : ''}`,
        14,
      ),
    );
    const last = asObject(asObject(status.lastState).terminated);
    if (Object.keys(last).length)
      lines.push(
        field(
          i,
          'Last State',
          `Terminated (${str(last.reason) ?? 'Error'}, exit code ${String(last.exitCode ?? '?')})${str(last.finishedAt) ? `, ${ageOf(last.finishedAt, now)} ago` : ''}`,
        ),
      );
    lines.push(field(i, 'Ready', status.ready === true ? 'True' : 'False'));
    lines.push(field(i, 'Restart Count', String(Number(status.restartCount ?? 0))));
  }
  const res = asObject(c.resources);
  for (const [label, key] of [
    ['Limits', 'limits'],
    ['Requests', 'requests'],
  ] as const)
    if (Object.keys(asObject(res[key])).length)
      lines.push(
        field(
          i,
          label,
          Object.entries(asObject(res[key]))
            .map(([k, v]) => `${k} ${String(v)}`)
            .join(', '),
        ),
      );
  for (const [label, key] of [
    ['Liveness', 'livenessProbe'],
    ['Readiness', 'readinessProbe'],
    ['Startup', 'startupProbe'],
  ] as const)
    if (c[key]) lines.push(field(i, label, probeText(asObject(c[key]))));
  const env = arr(c.env);
  if (env.length) {
    lines.push(heading(i, 'Environment:'));
    for (const e of env) lines.push({ text: `${' '.repeat(i + 2)}${envText(e)}` });
  }
  for (const f of arr(c.envFrom))
    lines.push(
      field(
        i,
        'Env From',
        f.secretRef ? `secret ${str(asObject(f.secretRef).name)}` : `config map ${str(asObject(f.configMapRef).name)}`,
      ),
    );
  const mounts = arr(c.volumeMounts);
  if (mounts.length) {
    lines.push(heading(i, 'Mounts:'));
    for (const m of mounts)
      lines.push({
        text: `${' '.repeat(i + 2)}${String(m.mountPath)} from ${String(m.name)}${m.readOnly ? ' (ro)' : ' (rw)'}`,
      });
  }
  return lines;
}

function volumeText(v: Attributes): string {
  const [type, source] = Object.entries(v).find(([k]) => k !== 'name') ?? ['unknown', {}];
  const s = asObject(source);
  const name = str(s.secretName) ?? str(s.name) ?? str(s.claimName) ?? str(s.path) ?? '';
  return `${String(v.name)}: ${type}${name ? ` ${name}` : ''}`;
}

/** A pod spec's important fields; `statuses` by container name when the object is a pod. */
function podSpecLines(
  spec: Attributes,
  indent: number,
  statuses: ReadonlyMap<string, Attributes>,
  now: number,
): DiffLine[] {
  const lines: DiffLine[] = [];
  if (str(spec.serviceAccountName)) lines.push(field(indent, 'Service Account', str(spec.serviceAccountName)!, 17));
  if (Object.keys(asObject(spec.nodeSelector)).length)
    lines.push(field(indent, 'Node-Selectors', pairs(spec.nodeSelector), 17));
  const inits = arr(spec.initContainers);
  if (inits.length) {
    lines.push(heading(indent, 'Init Containers:'));
    for (const c of inits) lines.push(...containerLines(c, statuses.get(`init:${String(c.name)}`), indent + 1, now));
  }
  lines.push(heading(indent, 'Containers:'));
  for (const c of arr(spec.containers)) lines.push(...containerLines(c, statuses.get(String(c.name)), indent + 1, now));
  const volumes = arr(spec.volumes);
  if (volumes.length) {
    lines.push(heading(indent, 'Volumes:'));
    for (const v of volumes) lines.push({ text: `${' '.repeat(indent + 2)}${volumeText(v)}` });
  }
  return lines;
}

function conditionLines(status: Attributes): DiffLine[] {
  const conditions = arr(status.conditions);
  if (!conditions.length) return [];
  return [
    heading(0, 'Conditions:'),
    { text: `  ${'Type'.padEnd(28)}${'Status'.padEnd(8)}Reason` },
    ...conditions.map((c) => ({
      text: `  ${String(c.type).padEnd(28)}${String(c.status).padEnd(8)}${str(c.reason) ?? ''}`,
      ...(c.status === 'False' && c.type !== 'ReplicaFailure' ? { tone: 'warning' as const } : {}),
    })),
  ];
}

function replicaLines(o: KubeObject): DiffLine[] {
  const spec = asObject(o.spec);
  const status = asObject(o.status);
  const n = (x: unknown) => Number(x ?? 0);
  switch (o.kind) {
    case 'Deployment': {
      const strategy = asObject(spec.strategy);
      const rolling = asObject(strategy.rollingUpdate);
      return [
        field(
          0,
          'Replicas',
          `${n(spec.replicas ?? 1)} desired | ${n(status.updatedReplicas)} updated | ${n(status.replicas)} total | ${n(status.availableReplicas)} available | ${n(status.unavailableReplicas)} unavailable`,
        ),
        field(
          0,
          'Strategy',
          `${str(strategy.type) ?? 'RollingUpdate'}${strategy.type === 'Recreate' ? '' : ` (max unavailable ${str(rolling.maxUnavailable) ?? '25%'}, max surge ${str(rolling.maxSurge) ?? '25%'})`}`,
        ),
      ];
    }
    case 'StatefulSet':
    case 'ReplicaSet':
      return [
        field(
          0,
          'Replicas',
          `${n(spec.replicas ?? 1)} desired | ${n(status.replicas)} current | ${n(status.readyReplicas)} ready`,
        ),
      ];
    case 'DaemonSet':
      return [
        field(
          0,
          'Pods',
          `${n(status.desiredNumberScheduled)} desired | ${n(status.currentNumberScheduled)} current | ${n(status.numberReady)} ready | ${n(status.numberAvailable)} available`,
        ),
      ];
    case 'Job':
      return [
        field(0, 'Completions', `${n(spec.completions ?? 1)} (parallelism ${n(spec.parallelism ?? 1)})`),
        field(
          0,
          'Pods Status',
          `${n(status.active)} active | ${n(status.succeeded)} succeeded | ${n(status.failed)} failed`,
        ),
      ];
    default:
      return [];
  }
}

function kindLines(o: KubeObject, now: number): DiffLine[] {
  const spec = asObject(o.spec);
  const status = asObject(o.status);
  switch (o.kind) {
    case 'Pod': {
      const statuses = new Map<string, Attributes>([
        ...arr(status.initContainerStatuses).map((c) => [`init:${String(c.name)}`, c] as [string, Attributes]),
        ...arr(status.containerStatuses).map((c) => [String(c.name), c] as [string, Attributes]),
      ]);
      const owner = arr(asObject(o.metadata).ownerReferences).find((r) => r.controller === true);
      const row = podRow(o, now);
      return [
        field(0, 'Node', str(spec.nodeName) ?? '<none>'),
        field(0, 'Status', row.status, 14),
        field(0, 'IP', str(status.podIP) ?? '<none>'),
        ...(owner ? [field(0, 'Controlled By', `${String(owner.kind)}/${String(owner.name)}`)] : []),
        ...podSpecLines(spec, 0, statuses, now),
        ...conditionLines(status),
      ];
    }
    case 'Deployment':
    case 'StatefulSet':
    case 'DaemonSet':
    case 'ReplicaSet':
    case 'Job': {
      const template = asObject(spec.template);
      return [
        field(0, 'Selector', pairs(asObject(spec.selector).matchLabels)),
        ...replicaLines(o),
        ...conditionLines(status),
        heading(0, 'Pod Template:'),
        field(2, 'Labels', pairs(asObject(template.metadata).labels)),
        ...podSpecLines(asObject(template.spec), 2, new Map(), now),
      ];
    }
    case 'Service': {
      const ports = arr(spec.ports).map(
        (p) =>
          `${p.name ? `${String(p.name)} ` : ''}${String(p.port)}→${String(p.targetPort ?? p.port)}/${str(p.protocol) ?? 'TCP'}`,
      );
      const ingress = arr(asObject(status.loadBalancer).ingress).map((i) => str(i.ip) ?? str(i.hostname) ?? '');
      return [
        field(0, 'Type', str(spec.type) ?? 'ClusterIP'),
        field(0, 'Selector', pairs(spec.selector)),
        field(0, 'IP', str(spec.clusterIP) ?? '<none>'),
        field(0, 'Ports', ports.join(', ') || '<none>'),
        ...(ingress.length ? [field(0, 'Ingress', ingress.join(', '))] : []),
      ];
    }
    case 'ConfigMap':
    case 'Secret': {
      const data = { ...asObject(o.data), ...asObject(o.binaryData) };
      return [
        ...(o.kind === 'Secret' ? [field(0, 'Type', str(o.type) ?? 'Opaque')] : []),
        heading(0, 'Data:'),
        // values are not shown: a Secret's only by size, as kubectl does
        ...Object.entries(data).map(([k, v]) => ({
          text: `  ${k}: ${o.kind === 'Secret' ? `${Buffer.from(String(v), 'base64').length} bytes` : `${String(v).length} characters`}`,
        })),
      ];
    }
    default:
      return conditionLines(status);
  }
}

function eventTime(e: KubeObject): string | undefined {
  return (
    str(e.lastTimestamp) ?? str(e.eventTime) ?? str(e.firstTimestamp) ?? str(asObject(e.metadata).creationTimestamp)
  );
}

/** The Events section: the object's and its pods' events, newest first, Warnings in the danger tone. */
export function eventLines(events: readonly KubeObject[], of: { kind: string; name: string }, now: number): DiffLine[] {
  if (!events.length) return [heading(0, 'Events:  <none>')];
  const row = (type: string, reason: string, age: string, object: string, message: string) =>
    `  ${type.padEnd(8)} ${reason.padEnd(17)} ${age.padEnd(21)} ${object.padEnd(23)} ${message}`;
  const lines: DiffLine[] = [
    heading(0, 'Events:'),
    { text: row('Type', 'Reason', 'Age', 'Object', 'Message'), tone: 'muted' },
  ];
  for (const e of events) {
    const about = asObject(e.involvedObject ?? e.regarding);
    const count = Number(e.count ?? asObject(e.series).count ?? 1);
    const first = str(e.firstTimestamp);
    const age = `${ageOf(eventTime(e), now)}${count > 1 ? ` (x${count}${first ? ` over ${ageOf(first, now)}` : ''})` : ''}`;
    const object =
      about.kind === of.kind && about.name === of.name
        ? 'this'
        : `${String(about.kind ?? '').toLowerCase()}/${String(about.name ?? '')}`;
    lines.push({
      text: row(
        String(e.type ?? 'Normal'),
        String(e.reason ?? ''),
        age,
        object,
        String(e.message ?? e.note ?? '').replace(/\s+/g, ' '),
      ),
      ...(e.type === 'Warning' ? { tone: 'danger' as const } : {}),
    });
  }
  return lines;
}

export interface Described {
  object: KubeObject;
  pods: readonly KubeObject[];
  events: readonly KubeObject[];
}

export function describeLines({ object: o, pods, events }: Described, now: number): DiffLine[] {
  const meta = asObject(o.metadata);
  const lines: DiffLine[] = [
    field(0, 'Name', String(meta.name ?? '')),
    ...(str(meta.namespace) ? [field(0, 'Namespace', str(meta.namespace)!)] : []),
    field(0, 'Kind', `${String(o.kind)} (${String(o.apiVersion)})`),
    field(0, 'Created', `${str(meta.creationTimestamp) ?? '<unknown>'} (${ageOf(meta.creationTimestamp, now)} ago)`),
    field(0, 'Labels', pairs(meta.labels)),
    ...kindLines(o, now),
  ];
  if (o.kind !== 'Pod' && pods.length) {
    lines.push(heading(0, `Pods (${pods.length}):`));
    for (const p of pods) {
      const r = podRow(p, now);
      lines.push({
        text: `  ${r.name.padEnd(35)} ${r.ready.padEnd(5)} ${r.status.padEnd(19)} ${r.restartsText}`,
        ...(r.tone === 'danger'
          ? { tone: 'danger' as const }
          : r.tone === 'warning'
            ? { tone: 'warning' as const }
            : {}),
      });
    }
  }
  return [...lines, ...eventLines(events, { kind: String(o.kind), name: String(meta.name ?? '') }, now)];
}
