/**
 * The cmdb plugin of recovery runbooks (`import kcl_plugin.cmdb`): failing hostnames to the pods
 * behind them. The runbook's KCL runs synchronously, so the look-up is done before it runs: by
 * default every cluster is asked at once for pods whose name, `spec.hostname` or node is the
 * hostname; or a CMDB file (YAML or CSV: hostname, cluster, namespace, pod) says where they are.
 * A hostname nothing matches is reported as unresolved, never dropped.
 */
import fs from 'node:fs';
import YAML from 'yaml';
import type { KubeObject } from '../model/kube-object.js';
import { fromPlain } from '../kcl/run.js';
import type { PluginFunction } from '../kcl/plugins.js';
import { UserError } from '../diagnostics/user-error.js';

export const CMDB_PLUGIN = 'cmdb';

export interface PodRecord {
  hostname: string;
  cluster: string;
  namespace: string;
  pod: string;
  node?: string;
  /** The workload that owns the pod (a ReplicaSet is followed to its Deployment). */
  owner?: { kind: string; name: string };
}

export interface HostTable {
  records: PodRecord[];
  /** Hostnames no pod matched, in the order they were asked for. */
  unresolved: string[];
}

/** What the look-up needs of a cluster: its pods and ReplicaSets (ObjectClient has it). */
export interface PodSource {
  list(ref: { apiVersion: string; kind: string; namespace?: string }): Promise<{ items: KubeObject[] }>;
}

const field = (o: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>(
    (x, k) => (typeof x === 'object' && x !== null ? (x as Record<string, unknown>)[k] : undefined),
    o,
  );

function controllerOf(o: KubeObject): { kind: string; name: string } | undefined {
  const refs = field(o, 'metadata', 'ownerReferences');
  const ref = Array.isArray(refs) ? refs.find((r) => field(r, 'controller') === true) : undefined;
  return ref ? { kind: String(field(ref, 'kind')), name: String(field(ref, 'name')) } : undefined;
}

/** Asks every cluster at once for the pods behind the hostnames. */
export async function resolveFromClusters(hosts: string[], clusters: Map<string, PodSource>): Promise<HostTable> {
  const perCluster = await Promise.all(
    [...clusters].map(async ([cluster, source]) => {
      const [pods, replicaSets] = await Promise.all([
        source.list({ apiVersion: 'v1', kind: 'Pod' }),
        source.list({ apiVersion: 'apps/v1', kind: 'ReplicaSet' }),
      ]);
      const rsOwner = new Map(
        replicaSets.items.map((rs) => [
          `${String(field(rs, 'metadata', 'namespace'))}/${String(field(rs, 'metadata', 'name'))}`,
          controllerOf(rs),
        ]),
      );
      const records: PodRecord[] = [];
      for (const host of hosts) {
        for (const p of pods.items) {
          const name = String(field(p, 'metadata', 'name'));
          const node = field(p, 'spec', 'nodeName');
          if (name !== host && field(p, 'spec', 'hostname') !== host && node !== host) continue;
          const namespace = String(field(p, 'metadata', 'namespace'));
          let owner = controllerOf(p);
          if (owner?.kind === 'ReplicaSet') owner = rsOwner.get(`${namespace}/${owner.name}`) ?? owner;
          records.push({
            hostname: host,
            cluster,
            namespace,
            pod: name,
            ...(typeof node === 'string' ? { node } : {}),
            ...(owner ? { owner } : {}),
          });
        }
      }
      return records;
    }),
  );
  const records = perCluster.flat();
  return { records, unresolved: hosts.filter((h) => !records.some((r) => r.hostname === h)) };
}

/** Reads a CMDB file: a YAML list of {hostname, cluster, namespace, pod}, or CSV with that header. */
export function resolveFromFile(hosts: string[], file: string): HostTable {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    throw new UserError(
      `cannot read the CMDB file ${file}; pass an existing file, or leave it out to ask the clusters`,
    );
  }
  const rows: Record<string, unknown>[] = [];
  if (file.endsWith('.csv')) {
    const [header, ...lines] = text.split(/\r?\n/).filter((l) => l.trim() !== '');
    const columns = (header ?? '').split(',').map((c) => c.trim());
    for (const l of lines) rows.push(Object.fromEntries(l.split(',').map((v, i) => [columns[i], v.trim()])));
  } else {
    const doc: unknown = YAML.parse(text);
    if (!Array.isArray(doc))
      throw new UserError(`the CMDB file ${file} must be a list of {hostname, cluster, namespace, pod}`);
    rows.push(...(doc as Record<string, unknown>[]));
  }
  const records: PodRecord[] = [];
  rows.forEach((r, i) => {
    const missing = ['hostname', 'cluster', 'namespace', 'pod'].filter((k) => typeof r[k] !== 'string' || r[k] === '');
    if (missing.length) throw new UserError(`the CMDB file ${file}, entry ${i + 1}: no ${missing.join(', ')}`);
    if (hosts.includes(String(r.hostname)))
      records.push({
        hostname: String(r.hostname),
        cluster: String(r.cluster),
        namespace: String(r.namespace),
        pod: String(r.pod),
      });
  });
  return { records, unresolved: hosts.filter((h) => !records.some((r) => r.hostname === h)) };
}

/** The plugin's functions over a resolved table: `lookup(hostname)` and `unresolved()`. */
export function cmdbPlugin(table: HostTable): Record<string, PluginFunction> {
  return {
    lookup: (args) => {
      const host = args[0];
      if (typeof host !== 'string') return [];
      return table.records.filter((r) => r.hostname === host).map(fromPlain);
    },
    unresolved: () => [...table.unresolved],
  };
}
