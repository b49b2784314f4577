import { describe, expect, it } from 'vitest';
import type { JsonMap } from '../json.js';
import type { ManagedFieldsEntry } from '../api/object.js';
import { serverSideApply, type ApplyRequest } from './apply.js';
import { fieldPaths, fromFieldsV1, toFieldsV1 } from './fieldset.js';
import { recordUpdate } from './managed-fields.js';

const T = '2026-01-01T00:00:00Z';

function config(replicas: number | undefined, image: string, extra: JsonMap = {}): JsonMap {
  const spec: JsonMap = { template: { spec: { containers: [{ name: 'app', image }] } }, ...extra };
  if (replicas !== undefined) spec.replicas = replicas;
  return { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec };
}

function apply(
  live: JsonMap | undefined,
  cfg: JsonMap,
  manager: string,
  force = false,
): { object: JsonMap; managedFields: ManagedFieldsEntry[] } {
  const req: ApplyRequest = {
    live,
    config: cfg,
    kind: 'Deployment',
    manager,
    force,
    scope: 'main',
    apiVersion: 'apps/v1',
    time: T,
  };
  return serverSideApply(req);
}

function withFields(r: { object: JsonMap; managedFields: ManagedFieldsEntry[] }): JsonMap {
  return { ...r.object, metadata: { ...(r.object.metadata as JsonMap), managedFields: r.managedFields } };
}

const owners = (r: { managedFields: ManagedFieldsEntry[] }) => r.managedFields.map((m) => m.manager);

describe('server-side apply', () => {
  it('gives the applier exactly the fields of its configuration, in FieldsV1', () => {
    const made = apply(undefined, config(2, 'app:1'), 'alice');
    expect(made.managedFields).toEqual([
      {
        manager: 'alice',
        operation: 'Apply',
        apiVersion: 'apps/v1',
        time: T,
        fieldsType: 'FieldsV1',
        fieldsV1: {
          'f:spec': {
            'f:replicas': {},
            'f:template': {
              'f:spec': { 'f:containers': { 'k:{"name":"app"}': { '.': {}, 'f:image': {}, 'f:name': {} } } },
            },
          },
        },
      },
    ]);
  });

  it('conflicts over a value another manager set differently, unless forced; same values are shared', () => {
    const alice = withFields(apply(undefined, config(2, 'app:1'), 'alice'));
    expect(() => apply(alice, config(3, 'app:1'), 'bob')).toThrow(
      expect.objectContaining({
        code: 409,
        message: 'Apply failed with 1 conflict: conflict with "alice" using apps/v1: .spec.replicas',
      }),
    );
    const shared = apply(alice, config(2, 'app:1'), 'bob');
    expect(owners(shared)).toEqual(['alice', 'bob']);
    const forced = apply(alice, config(3, 'app:1'), 'bob', true);
    expect((forced.object.spec as JsonMap).replicas).toBe(3);
    const aliceLeft = fromFieldsV1(forced.managedFields.find((m) => m.manager === 'alice')!.fieldsV1);
    expect([...aliceLeft].some((p) => p.includes('f:replicas'))).toBe(false);
  });

  it('removes fields the applier dropped from its configuration, unless someone else owns them', () => {
    const first = withFields(apply(undefined, config(2, 'app:1', { minReadySeconds: 5, paused: false }), 'alice'));
    const coOwned = withFields(apply(first, config(undefined, 'app:1', { paused: false }), 'bob'));
    const dropped = apply(coOwned, config(undefined, 'app:1', { paused: false }), 'alice');
    const spec = dropped.object.spec as JsonMap;
    expect(spec.replicas).toBeUndefined();
    expect(spec.minReadySeconds).toBeUndefined();
    expect(spec.paused).toBe(false);
  });

  it('merges keyed list items (containers by name) instead of replacing the list', () => {
    const one = withFields(apply(undefined, config(1, 'app:1'), 'alice'));
    const sidecar = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: { template: { spec: { containers: [{ name: 'mesh', image: 'mesh:1' }] } } },
    };
    const both = apply(one, sidecar, 'mesh-injector');
    const names = ((((both.object.spec as JsonMap).template as JsonMap).spec as JsonMap).containers as JsonMap[]).map(
      (c) => c.name,
    );
    expect(names).toEqual(['mesh', 'app']);
  });

  it('lets kubectl take over fields it last applied client-side, if they still hold that value', () => {
    const lastApplied = JSON.stringify(config(2, 'app:1'));
    const live: JsonMap = {
      ...config(5, 'app:1'),
      metadata: {
        name: 'web',
        annotations: { 'kubectl.kubernetes.io/last-applied-configuration': lastApplied },
        managedFields: [
          {
            manager: 'kubectl-client-side-apply',
            operation: 'Update',
            apiVersion: 'apps/v1',
            time: T,
            fieldsType: 'FieldsV1',
            fieldsV1: toFieldsV1(fieldPaths(config(2, 'app:1'), 'Deployment', 'main')),
          },
        ],
      },
    };
    // the image still holds its last-applied value: no conflict; replicas moved on (2 → 5): conflict
    expect(() => apply(live, config(5, 'app:2'), 'kubectl')).not.toThrow();
    expect(() => apply(live, config(7, 'app:1'), 'kubectl')).toThrow(expect.objectContaining({ code: 409 }));
    expect(() => apply(live, config(5, 'app:2'), 'someone-else')).toThrow(expect.objectContaining({ code: 409 }));
  });
});

describe('ownership after ordinary writes', () => {
  it('gives the writer what it changed and takes it from the previous owner', () => {
    const before = withFields(apply(undefined, config(2, 'app:1'), 'alice'));
    const after = { ...before, spec: { ...(before.spec as JsonMap), replicas: 4 } };
    const fields = recordUpdate(
      (before.metadata as JsonMap).managedFields as ManagedFieldsEntry[],
      before,
      after,
      'Deployment',
      { manager: 'hpa', apiVersion: 'apps/v1', time: T, scope: 'main' },
    );
    const byManager = Object.fromEntries(
      fields.map((f) => [f.manager, [...fromFieldsV1(f.fieldsV1)].map((p) => p.split('\u0000').join('.'))]),
    );
    expect(byManager.hpa).toEqual(['f:spec.f:replicas']);
    expect(byManager.alice).not.toContain('f:spec.f:replicas');
    expect(byManager.alice).toContain('f:spec.f:template.f:spec.f:containers.k:{"name":"app"}.f:image');
  });

  it("keeps a writer's fields when it writes them again, and adds the ones it writes anew", () => {
    const before = withFields(apply(undefined, config(2, 'app:1'), 'alice'));
    const write = (from: JsonMap, replicas: number, extra: JsonMap, time: string): JsonMap => {
      const to: JsonMap = { ...from, spec: { ...(from.spec as JsonMap), replicas, ...extra } };
      const entries = (from.metadata as JsonMap).managedFields as ManagedFieldsEntry[];
      const managedFields = recordUpdate(entries, from, to, 'Deployment', {
        manager: 'hpa',
        apiVersion: 'apps/v1',
        time,
        scope: 'main',
      });
      return { ...to, metadata: { ...(to.metadata as JsonMap), managedFields } };
    };
    const hpaOf = (o: JsonMap) =>
      ((o.metadata as JsonMap).managedFields as ManagedFieldsEntry[]).find((f) => f.manager === 'hpa')!;
    const first = write(before, 4, {}, T);
    const again = write(first, 5, {}, '2026-01-01T00:00:09Z');
    expect(hpaOf(again).time).toBe('2026-01-01T00:00:09Z');
    expect(hpaOf(again).fieldsV1).toEqual({ 'f:spec': { 'f:replicas': {} } });
    const more = write(again, 6, { paused: true }, '2026-01-01T00:00:10Z');
    expect(hpaOf(more).fieldsV1).toEqual({ 'f:spec': { 'f:paused': {}, 'f:replicas': {} } });
  });

  it('encodes and decodes FieldsV1 without loss', () => {
    const paths = fieldPaths(config(2, 'app:1', { selector: { matchLabels: { app: 'web' } } }), 'Deployment', 'main');
    expect(fromFieldsV1(toFieldsV1(paths))).toEqual(paths);
  });
});
