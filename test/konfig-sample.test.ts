/**
 * konfig-sample, the repository every later feature runs on: every stack compiles to its golden
 * Spec, the Specs keep the contract the engine relies on, and the models reject the mistakes
 * collected in hack/mistakes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { referencesIn } from '../src/graph/references.js';
import { KclError } from '../src/diagnostics/diagnostics.js';
import { PackageCache, type EvaluatedPackage } from '../src/kcl/package-cache.js';
import { runKcl } from '../src/kcl/run.js';
import { toStr } from '../src/kcl/eval/values.js';
import { compileStack } from '../src/konfig/compile.js';
import { compileSnapshots, snapshotDrift } from '../scripts/snapshots.js';
import { asObject, type Attributes, type Resource } from '../src/model/resource.js';
import { loadWorkspace } from '../src/konfig/workspace.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SAMPLE = path.join(HERE, '..', 'konfig-sample');
const SNAPSHOTS = path.join(HERE, '..', 'snapshots', 'compile');

const workspace = loadWorkspace(SAMPLE);
const stacks = workspace.projects.flatMap((p) => p.stacks);
const compiled = new Map(stacks.map((s) => [s.path, compileStack(s.dir)]));

describe('konfig-sample', () => {
  it('has five projects, twelve stacks, two of them on a second cluster', () => {
    expect(workspace.projects.map((p) => p.name)).toEqual([
      'batch-report',
      'guestbook',
      'http-echo',
      'nginx-example',
      'stateful-app',
    ]);
    expect(stacks).toHaveLength(12);
    expect(stacks.filter((s) => s.cluster).map((s) => `${s.path} ${s.cluster}`)).toEqual([
      'appops/guestbook/prod sandbox-b',
      'appops/nginx-example/prod sandbox-b',
    ]);
  });

  it('compiles every stack to its golden Spec in snapshots/compile', () => {
    const drift = snapshotDrift(compileSnapshots(SAMPLE), SNAPSHOTS);
    // a difference is either a regression or an intended change: `npm run snapshots:update` records the latter
    expect(
      drift,
      'the compiled Specs differ from snapshots/compile; review, then run `npm run snapshots:update`',
    ).toEqual({
      changed: [],
      added: [],
      removed: [],
    });
  });

  it('compiles every stack to the same Spec however the package cache was filled', () => {
    for (const s of [...stacks].reverse()) expect(compileStack(s.dir).spec, s.path).toEqual(compiled.get(s.path)!.spec);
  });

  it('leaves the packages it keeps unchanged while every stack uses them', () => {
    const kept: EvaluatedPackage[] = [];
    const cache = new (class extends PackageCache {
      override store(key: string, pkg: EvaluatedPackage): void {
        kept.push(pkg);
        super.store(key, pkg);
      }
    })();
    compileStack(stacks[0].dir, { packageCache: cache });
    // every value a kept package holds, as text: lists, dicts and schema instances in full
    const fingerprint = () => kept.map((p) => [...p.module.members].map(([k, v]) => `${k}=${toStr(v)}`).join('\n'));
    const before = fingerprint();
    expect(before.length).toBeGreaterThan(20);
    for (const s of stacks) compileStack(s.dir, { packageCache: cache });
    expect(fingerprint().slice(0, before.length)).toEqual(before);
  });

  it('uses an implicit reference in guestbook staging, so the graph has both kinds of edge', () => {
    const spec = compiled.get('appops/guestbook/staging')!.spec;
    const frontend = spec.resources.find((r) => r.id === 'apps/v1:Deployment:guestbook-staging:frontend')!;
    expect(referencesIn(frontend.attributes).map((r) => `${r.target}#${r.pointer}`)).toEqual([
      'v1:Service:guestbook-staging:redis-leader#/spec/clusterIP',
      'v1:Service:guestbook-staging:redis-follower#/spec/clusterIP',
    ]);
    expect(frontend.dependsOn).toContain('v1:Namespace:guestbook-staging');
  });

  it("adds stateful-app's CRD to its stacks", () => {
    for (const s of ['appops/stateful-app/dev', 'appops/stateful-app/prod']) {
      expect(compiled.get(s)!.spec.resources.map((r) => r.id)).toContain(
        'apiextensions.k8s.io/v1:CustomResourceDefinition:etcdbackups.storage.kdeck.dev',
      );
    }
  });

  describe.each(stacks.map((s) => s.path))('%s keeps the Spec contract', (stackPath) => {
    const { spec, stack } = compiled.get(stackPath)!;
    it('marks its objects, targets its cluster, and depends on what it uses', () => {
      expect(contractProblems(spec.resources, stack.cluster)).toEqual([]);
    });
  });
});

describe('hack/mistakes', () => {
  const dir = path.join(SAMPLE, 'hack', 'mistakes');
  const render = path.join(SAMPLE, 'base', 'pkg', 'render', 'render.k');
  it.each(
    fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.k'))
      .sort(),
  )('%s is rejected with its expected error', (file) => {
    const text = fs.readFileSync(path.join(dir, file), 'utf8');
    const expected = /^# expect: (.+)$/m.exec(text)?.[1];
    expect(expected, `${file} needs a '# expect:' line`).toBeDefined();
    const files = [path.join(dir, file), ...(/^# with-render$/m.test(text) ? [render] : [])];
    let error: unknown;
    try {
      runKcl({ files, workDir: dir });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(KclError);
    expect(
      (error as KclError).diagnostic.message + JSON.stringify((error as KclError).diagnostic.related ?? []),
    ).toContain(expected);
  });
});

// ---------------------------------------------------------------- the contract

const CLUSTER_SCOPED = new Set(['Namespace', 'ClusterRole', 'ClusterRoleBinding', 'CustomResourceDefinition']);
const WORKLOADS = new Set(['Deployment', 'StatefulSet', 'Job', 'CronJob']);

const obj = asObject;
const list = (x: unknown): Attributes[] => (Array.isArray(x) ? x.map(obj) : []);

function podTemplate(a: Attributes): Attributes {
  return a.kind === 'CronJob' ? obj(obj(obj(obj(a.spec).jobTemplate).spec).template) : obj(obj(a.spec).template);
}

function selects(selector: unknown, labels: unknown): boolean {
  return Object.entries(obj(selector)).every(([k, v]) => obj(labels)[k] === v);
}

/** What a Spec must satisfy for the engine: each entry names the resource and the problem. */
function contractProblems(resources: Resource[], cluster: string | undefined): string[] {
  const problems: string[] = [];
  const ids = new Map(resources.map((r) => [r.id, r]));
  const needs = (r: Resource, id: string, why: string) => {
    if (!ids.has(id)) problems.push(`${r.id}: ${why} ${id}, which the stack does not have`);
    else if (!(r.dependsOn ?? []).includes(id)) problems.push(`${r.id}: ${why} ${id} but does not depend on it`);
  };
  for (const r of resources) {
    const a = r.attributes;
    const meta = obj(a.metadata);
    const ns = typeof meta.namespace === 'string' ? meta.namespace : undefined;
    if (r.extensions?.cluster !== cluster)
      problems.push(`${r.id}: extensions.cluster is ${String(r.extensions?.cluster)}, want ${String(cluster)}`);
    if (a.kind === 'CustomResourceDefinition') continue;
    if (obj(meta.labels)['app.kubernetes.io/managed-by'] !== 'kdeck')
      problems.push(`${r.id}: no app.kubernetes.io/managed-by label`);
    if (!CLUSTER_SCOPED.has(String(a.kind))) needs(r, `v1:Namespace:${ns}`, 'lives in');
    if (WORKLOADS.has(String(a.kind))) {
      const tpl = podTemplate(a);
      const pod = obj(tpl.spec);
      if (
        a.kind !== 'Job' &&
        a.kind !== 'CronJob' &&
        !selects(obj(obj(a.spec).selector).matchLabels, obj(tpl.metadata).labels)
      ) {
        problems.push(`${r.id}: the selector does not match the pod template`);
      }
      for (const v of list(pod.volumes)) {
        if (v.configMap) needs(r, `v1:ConfigMap:${ns}:${String(obj(v.configMap).name)}`, 'mounts');
        if (v.secret) needs(r, `v1:Secret:${ns}:${String(obj(v.secret).secretName)}`, 'mounts');
      }
      for (const c of [...list(pod.containers), ...list(pod.initContainers)]) {
        for (const e of list(c.envFrom)) {
          if (e.configMapRef) needs(r, `v1:ConfigMap:${ns}:${String(obj(e.configMapRef).name)}`, 'reads');
          if (e.secretRef) needs(r, `v1:Secret:${ns}:${String(obj(e.secretRef).name)}`, 'reads');
        }
      }
      if (typeof pod.serviceAccountName === 'string')
        needs(r, `v1:ServiceAccount:${ns}:${pod.serviceAccountName}`, 'runs as');
      if (a.kind === 'StatefulSet') needs(r, `v1:Service:${ns}:${String(obj(a.spec).serviceName)}`, 'is governed by');
    }
    if (a.kind === 'Service') {
      const selected = resources.filter(
        (w) =>
          (w.attributes.kind === 'Deployment' || w.attributes.kind === 'StatefulSet') &&
          obj(w.attributes.metadata).namespace === ns &&
          selects(obj(a.spec).selector, obj(podTemplate(w.attributes).metadata).labels),
      );
      if (selected.length !== 1) problems.push(`${r.id}: selects the pods of ${selected.length} workloads`);
    }
  }
  return problems;
}
