import { describe, expect, it } from 'vitest';
import { applyJsonPatch, parseJsonPatch } from './json-patch.js';
import { mergePatch } from './merge-patch.js';
import { rootCursor } from './schema.js';
import { strategicMerge } from './strategic-merge.js';

describe('JSON merge patch (RFC 7386)', () => {
  it('merges maps, deletes on null, replaces lists and scalars', () => {
    const target = { a: 'b', c: { d: 'e', f: 'g' }, list: [1, 2] };
    expect(mergePatch(target, { a: 'z', c: { f: null }, list: [3] })).toEqual({ a: 'z', c: { d: 'e' }, list: [3] });
    expect(mergePatch({ a: 'b' }, ['c'])).toEqual(['c']);
    expect(target.c.f).toBe('g');
  });
});

describe('JSON patch (RFC 6902)', () => {
  const doc = { spec: { replicas: 1, containers: [{ name: 'a' }, { name: 'b' }] } };

  it('adds, removes, replaces, moves, copies and tests', () => {
    const out = applyJsonPatch(
      doc,
      parseJsonPatch([
        { op: 'test', path: '/spec/replicas', value: 1 },
        { op: 'replace', path: '/spec/replicas', value: 3 },
        { op: 'add', path: '/spec/containers/-', value: { name: 'c' } },
        { op: 'remove', path: '/spec/containers/0' },
        { op: 'copy', from: '/spec/containers/0', path: '/spec/first' },
        { op: 'move', from: '/spec/first', path: '/spec/moved~1here' },
      ]),
    );
    expect(out).toEqual({
      spec: { replicas: 3, containers: [{ name: 'b' }, { name: 'c' }], 'moved/here': { name: 'b' } },
    });
    expect(doc.spec.replicas).toBe(1);
  });

  it('is a 400 when it does not decode and a 422 when it does not apply', () => {
    expect(() => parseJsonPatch({ op: 'add' })).toThrow(expect.objectContaining({ code: 400 }));
    expect(() => parseJsonPatch([{ op: 'jump', path: '/a' }])).toThrow(expect.objectContaining({ code: 400 }));
    expect(() => applyJsonPatch(doc, parseJsonPatch([{ op: 'remove', path: '/spec/nope' }]))).toThrow(
      expect.objectContaining({ code: 422 }),
    );
    expect(() => applyJsonPatch(doc, parseJsonPatch([{ op: 'test', path: '/spec/replicas', value: 2 }]))).toThrow(
      expect.objectContaining({ code: 422 }),
    );
  });
});

describe('strategic merge patch', () => {
  const deployment = {
    metadata: { finalizers: ['a'], labels: { app: 'web' } },
    spec: {
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } },
      template: {
        spec: {
          containers: [
            { name: 'app', image: 'app:1', env: [{ name: 'A', value: '1' }], ports: [{ containerPort: 80 }] },
            { name: 'side', image: 'side:1' },
          ],
          tolerations: [{ key: 'x' }],
        },
      },
    },
  };
  const merge = (patch: Record<string, unknown>) => strategicMerge(deployment, patch, rootCursor('Deployment'));
  const containers = (o: Record<string, unknown>) => (o as typeof deployment).spec.template.spec.containers;

  it('merges containers by name, and env inside them by name', () => {
    const out = merge({
      spec: { template: { spec: { containers: [{ name: 'app', image: 'app:2', env: [{ name: 'B', value: '2' }] }] } } },
    });
    expect(containers(out)).toEqual([
      {
        name: 'app',
        image: 'app:2',
        env: [
          { name: 'A', value: '1' },
          { name: 'B', value: '2' },
        ],
        ports: [{ containerPort: 80 }],
      },
      { name: 'side', image: 'side:1' },
    ]);
  });

  it('replaces lists without a merge key (tolerations) and unions finalizers', () => {
    const out = merge({
      metadata: { finalizers: ['b'] },
      spec: { template: { spec: { tolerations: [{ key: 'y' }] } } },
    }) as typeof deployment;
    expect(out.spec.template.spec.tolerations).toEqual([{ key: 'y' }]);
    expect(out.metadata.finalizers).toEqual(['a', 'b']);
  });

  it('honours $patch delete and replace, $setElementOrder, $deleteFromPrimitiveList and $retainKeys', () => {
    const deleted = merge({ spec: { template: { spec: { containers: [{ name: 'side', $patch: 'delete' }] } } } });
    expect(containers(deleted).map((c) => c.name)).toEqual(['app']);
    const replaced = merge({
      spec: { template: { spec: { containers: [{ name: 'only', image: 'o:1' }, { $patch: 'replace' }] } } },
    });
    expect(containers(replaced)).toEqual([{ name: 'only', image: 'o:1' }]);
    const ordered = merge({
      spec: {
        template: {
          spec: { $setElementOrder: undefined, '$setElementOrder/containers': [{ name: 'side' }, { name: 'app' }] },
        },
      },
    });
    expect(containers(ordered).map((c) => c.name)).toEqual(['side', 'app']);
    const pruned = merge({ metadata: { '$deleteFromPrimitiveList/finalizers': ['a'] } }) as typeof deployment;
    expect(pruned.metadata.finalizers).toEqual([]);
    const retained = merge({ spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } }) as typeof deployment;
    expect(retained.spec.strategy).toEqual({ type: 'Recreate' });
  });

  it('deletes a key set to null, and leaves the original untouched', () => {
    const out = merge({ metadata: { labels: { app: null } } }) as typeof deployment;
    expect(out.metadata.labels).toEqual({});
    expect(deployment.metadata.labels).toEqual({ app: 'web' });
  });
});
