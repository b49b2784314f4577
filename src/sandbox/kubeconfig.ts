/**
 * The kubeconfig of a sandbox: one cluster, one user and one context per sandbox cluster, all
 * named `sandbox-<name>`, each with its own bearer token. The servers use https:// (kubectl
 * sends tokens only over TLS) with a certificate made at start, hence
 * `insecure-skip-tls-verify: true`.
 */
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';

export interface KubeconfigEntry {
  name: string;
  server: string;
  token: string;
}

export function contextName(cluster: string): string {
  return `sandbox-${cluster}`;
}

export function kubeconfigYaml(entries: readonly KubeconfigEntry[], namespace = 'default'): string {
  const doc = {
    apiVersion: 'v1',
    kind: 'Config',
    preferences: {},
    clusters: entries.map((e) => ({
      name: contextName(e.name),
      cluster: { server: e.server, 'insecure-skip-tls-verify': true },
    })),
    users: entries.map((e) => ({ name: contextName(e.name), user: { token: e.token } })),
    contexts: entries.map((e) => ({
      name: contextName(e.name),
      context: { cluster: contextName(e.name), user: contextName(e.name), namespace },
    })),
    'current-context': entries[0] ? contextName(entries[0].name) : '',
  };
  return YAML.stringify(doc);
}

type Named = { name?: unknown };

/**
 * An existing kubeconfig with the sandbox's entries put in (replacing entries of the same
 * names, keeping every other one), so pointing `--kubeconfig` at a file in use loses nothing.
 */
export function mergeKubeconfig(existing: string, entries: readonly KubeconfigEntry[]): string {
  const parsed: unknown = YAML.parse(existing);
  const doc = (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? parsed : {}) as Record<
    string,
    unknown
  >;
  const ours = YAML.parse(kubeconfigYaml(entries)) as Record<string, unknown>;
  for (const section of ['clusters', 'users', 'contexts']) {
    const mine = ours[section] as Named[];
    const names = new Set(mine.map((x) => x.name));
    const theirs = Array.isArray(doc[section]) ? (doc[section] as Named[]).filter((x) => !names.has(x.name)) : [];
    doc[section] = [...theirs, ...mine];
  }
  doc.apiVersion ??= 'v1';
  doc.kind ??= 'Config';
  if (!doc['current-context']) doc['current-context'] = ours['current-context'];
  return YAML.stringify(doc);
}

/**
 * Writes the file (mode 0600: it holds tokens) atomically, through a temporary file beside it,
 * merged into what the file already holds.
 */
export function writeKubeconfig(file: string, entries: readonly KubeconfigEntry[]): void {
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  let text = kubeconfigYaml(entries);
  if (fs.existsSync(file)) text = mergeKubeconfig(fs.readFileSync(file, 'utf8'), entries);
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, text, { mode: 0o600 });
  fs.renameSync(tmp, file);
}

/** A token as it may be shown: its first four characters. */
export function maskToken(token: string): string {
  return `${token.slice(0, 4)}…(masked)`;
}
