import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { diagnosticOf } from '../kcl/testing.js';
import { compileStack } from './compile.js';
import { resourcesOfOutput, specOf } from './spec.js';
import { clusterOf, manifestId, type Resource } from '../model/resource.js';
import { specToYaml } from './spec-yaml.js';
import { MINIMAL_STACK, tempWorkspace } from './testing.js';

const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } };
const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'shop' } };

const message = (run: () => unknown) => diagnosticOf(run).message;

describe('resource ids', () => {
  it('leaves the namespace out for objects without one, as kusion does', () => {
    expect(manifestId(ns)).toBe('v1:Namespace:shop');
    expect(manifestId(cm)).toBe('v1:ConfigMap:shop:c');
    expect(manifestId({ apiVersion: 'apps/v1', metadata: {} })).toEqual({ missing: 'kind, metadata.name' });
  });

  it('takes the cluster from the resource before the stack', () => {
    const r: Resource = { id: 'v1:Namespace:shop', type: 'Kubernetes', attributes: ns };
    expect(clusterOf(r, 'sandbox-a')).toBe('sandbox-a');
    expect(clusterOf({ ...r, extensions: { cluster: 'sandbox-b' } }, 'sandbox-a')).toBe('sandbox-b');
  });
});

describe('stack output to resources', () => {
  it('reads one document per resource (older Konfig), a resources list, and plain manifests', () => {
    const perDocument = resourcesOfOutput([{ id: 'v1:Namespace:shop', type: 'Kubernetes', attributes: ns }], 'out');
    const listed = resourcesOfOutput(
      [{ resources: [{ id: 'v1:Namespace:shop', type: 'Kubernetes', attributes: ns }] }],
      'out',
    );
    const manifest = resourcesOfOutput([ns], 'out');
    expect(perDocument).toEqual(listed);
    expect(manifest).toEqual(listed);
  });

  it('names the resource for each mistake', () => {
    const one = (doc: unknown) => message(() => resourcesOfOutput([doc], 'the output of stack s'));
    expect(one({ type: 'Kubernetes', attributes: ns })).toBe(
      'the output of stack s: a resource has no id; every resource needs an id (apiVersion:Kind:namespace:name)',
    );
    expect(
      one({
        id: 'v1:Namespace:shop',
        type: 'Kubernetes',
        attributes: { kind: 'Namespace', metadata: { name: 'shop' } },
      }),
    ).toBe(
      'resource v1:Namespace:shop has no apiVersion in its attributes; a Kubernetes object needs apiVersion, kind and metadata.name',
    );
    expect(one({ id: 'v1:Namespace:shop', type: 'Kubernetes', attributes: cm })).toBe(
      'resource v1:Namespace:shop does not match its attributes, which make the id v1:ConfigMap:shop:c',
    );
    expect(one({ id: 'v1:Namespace:shop', type: 'Kubernetes', dependOn: [], attributes: ns })).toContain(
      'has unknown key dependOn',
    );
    expect(one({ id: 'v1:Namespace:shop', attributes: ns })).toBe(
      'resource v1:Namespace:shop has no type; use type: Kubernetes',
    );
    expect(one({ apiVersion: 'v1', kind: 'Namespace', metadata: {} })).toContain(
      'a Kubernetes object without metadata.name',
    );
    expect(one({ resources: [], appConfiguration: {} })).toContain(
      'top-level appConfiguration beside resources; make it private',
    );
  });

  it('refuses duplicate ids and dependencies outside the stack, and sorts by id', () => {
    const r = (attributes: Record<string, unknown>, dependsOn?: string[]): Resource => ({
      id: manifestId(attributes) as string,
      type: 'Kubernetes',
      attributes,
      ...(dependsOn ? { dependsOn } : {}),
    });
    expect(message(() => specOf([r(ns), r(ns)]))).toBe(
      'two resources have the id v1:Namespace:shop; ids must be unique within a stack',
    );
    expect(message(() => specOf([r(cm, ['v1:Namespace:other'])]))).toBe(
      'resource v1:ConfigMap:shop:c depends on v1:Namespace:other, which is not a resource of this stack',
    );
    expect(specOf([r(ns), r(cm, ['v1:Namespace:shop'])]).resources.map((x) => x.id)).toEqual([
      'v1:ConfigMap:shop:c',
      'v1:Namespace:shop',
    ]);
  });
});

describe('compiled stacks', () => {
  it('prints the Spec as documents with kusion key order, dependsOn and extensions only when set', () => {
    const text = specToYaml({
      resources: [
        {
          id: 'v1:ConfigMap:shop:c',
          type: 'Kubernetes',
          dependsOn: ['v1:Namespace:shop'],
          attributes: cm,
          extensions: { cluster: 'sandbox-b' },
        },
        { id: 'v1:Namespace:shop', type: 'Kubernetes', attributes: ns },
      ],
    });
    expect(text).toBe(
      [
        'id: v1:ConfigMap:shop:c',
        'type: Kubernetes',
        'dependsOn:',
        '- v1:Namespace:shop',
        'attributes:',
        '  apiVersion: v1',
        '  kind: ConfigMap',
        '  metadata:',
        '    name: c',
        '    namespace: shop',
        'extensions:',
        '  cluster: sandbox-b',
        '---',
        'id: v1:Namespace:shop',
        'type: Kubernetes',
        'attributes:',
        '  apiVersion: v1',
        '  kind: Namespace',
        '  metadata:',
        '    name: shop',
        '',
      ].join('\n'),
    );
  });

  it("adds the project's CRD files and reports a malformed one at its line", () => {
    const crd =
      'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: backups.example.dev\n';
    const root = tempWorkspace({
      ...MINIMAL_STACK,
      'apps/shop/crd/backups.yaml': crd,
      'apps/shop/crd/README.md': 'not a manifest',
    });
    const ids = compileStack(path.join(root, 'apps/shop/dev')).spec.resources.map((r) => r.id);
    expect(ids).toContain('apiextensions.k8s.io/v1:CustomResourceDefinition:backups.example.dev');
    const broken = tempWorkspace({ ...MINIMAL_STACK, 'apps/shop/crd/bad.yml': 'kind: [CustomResourceDefinition\n' });
    const d = diagnosticOf(() => compileStack(path.join(broken, 'apps/shop/dev')));
    expect(d.message).toMatch(/^malformed YAML in a CRD file/);
    expect(d.position?.file).toBe(path.join(broken, 'apps/shop/crd/bad.yml'));
  });

  it('refuses an implicit reference to a resource the stack does not have', () => {
    const main = MINIMAL_STACK['apps/shop/dev/main.k'].replace(
      'option("mode") or "normal"',
      '"\\${ref:v1:Service:shop-dev:db#/spec/clusterIP}"',
    );
    const root = tempWorkspace({ ...MINIMAL_STACK, 'apps/shop/dev/main.k': main });
    expect(message(() => compileStack(path.join(root, 'apps/shop/dev')))).toBe(
      'resource v1:ConfigMap:shop-dev:settings at /data/mode refers to v1:Service:shop-dev:db, which is not a resource of this stack',
    );
  });
});
