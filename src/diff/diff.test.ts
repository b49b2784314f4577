import { describe, expect, it } from 'vitest';
import { decide } from './actions.js';
import { fieldChanges, maskSecret } from './fields.js';
import type { Attributes } from '../model/resource.js';
import { renderFieldChanges } from './render.js';

const plan = (image: string, replicas = 2): Attributes => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'shop' },
  spec: {
    replicas,
    template: {
      spec: {
        containers: [
          { name: 'main', image },
          { name: 'sidecar', image: 'envoy:1.30' },
        ],
      },
    },
  },
});

/** The plan as the server returns it: defaults filled in, bookkeeping added. */
const served = (p: Attributes, rv: string, extra: Attributes = {}): Attributes => {
  const spec = p.spec as Attributes;
  const template = spec.template as { spec: { containers: Attributes[] } };
  return {
    ...p,
    metadata: {
      ...(p.metadata as Attributes),
      uid: 'u-1',
      resourceVersion: rv,
      generation: Number(rv),
      creationTimestamp: '2026-11-22T03:00:00Z',
      managedFields: [{ manager: 'kdeck', time: `t${rv}` }],
      annotations: { 'deployment.kubernetes.io/revision': rv },
    },
    spec: {
      ...spec,
      progressDeadlineSeconds: 600,
      template: {
        spec: {
          ...template.spec,
          containers: template.spec.containers.map((c) => ({ ...c, imagePullPolicy: 'IfNotPresent' })),
          restartPolicy: 'Always',
        },
      },
    },
    status: { replicas: spec.replicas, readyReplicas: spec.replicas },
    ...extra,
  };
};

describe('three-way decisions', () => {
  it('shows nothing to do right after an apply, whatever the server added', () => {
    const p = plan('nginx:1.25');
    const d = decide({ prior: p, plan: p, live: served(p, '7'), dryRun: served(p, '8') });
    expect(d).toMatchObject({ action: 'UnChanged', fields: [], drift: false });
  });

  it('reduces an image change to the one line that changes', () => {
    const before = plan('nginx:1.25');
    const after = plan('nginx:1.26');
    const d = decide({ prior: before, plan: after, live: served(before, '7'), dryRun: served(after, '8') });
    expect(d.action).toBe('Update');
    expect(renderFieldChanges(d.fields)).toBe(
      '~ spec.template.spec.containers[name=main].image: "nginx:1.25" → "nginx:1.26"',
    );
  });

  it('reports drift when someone scaled behind kdeck, and the update that undoes it', () => {
    const p = plan('nginx:1.25', 2);
    const live = served(plan('nginx:1.25', 5), '9');
    const d = decide({ prior: p, plan: p, live, dryRun: served(p, '10') });
    expect(d).toMatchObject({ action: 'Update', drift: true, note: 'changed outside kdeck since the last apply' });
    expect(renderFieldChanges(d.driftFields)).toBe('~ spec.replicas: 2 → 5');
    expect(renderFieldChanges(d.fields)).toBe('~ spec.replicas: 5 → 2');
  });

  it('creates what is not live, deletes what left the Spec, adopts what it did not know', () => {
    const p = plan('nginx:1.25');
    expect(decide({ plan: p }).action).toBe('Create');
    expect(decide({ prior: p, plan: p })).toMatchObject({
      action: 'Create',
      drift: true,
      note: 'deleted outside kdeck since the last apply',
    });
    expect(decide({ prior: p, live: served(p, '3') }).action).toBe('Delete');
    expect(decide({ prior: p })).toMatchObject({ action: 'Delete', note: 'already gone from the cluster' });
    expect(decide({ plan: p, live: served(p, '3'), dryRun: served(p, '4') })).toMatchObject({
      action: 'Import',
      fields: [],
    });
  });

  it('compares the fields the plan sets when the server could not dry-run it', () => {
    const p = plan('nginx:1.25');
    expect(decide({ prior: p, plan: p, live: served(p, '3') }).action).toBe('UnChanged');
    expect(decide({ prior: p, plan: plan('nginx:2'), live: served(p, '3') }).fields.map((f) => f.path)).toEqual([
      'spec.template.spec.containers[name=main].image',
    ]);
  });

  it('leaves out the fields the user ignores, also across lists', () => {
    const before = plan('nginx:1.25');
    const after = plan('nginx:1.26');
    const d = decide({
      prior: before,
      plan: after,
      live: served(before, '7'),
      dryRun: served(after, '8'),
      ignoreFields: ['spec.template.spec.containers.image'],
    });
    expect(d.action).toBe('UnChanged');
  });
});

describe('field changes', () => {
  it('addresses named list items by name, so an insertion does not shift the rest', () => {
    const a = {
      env: [
        { name: 'A', value: '1' },
        { name: 'B', value: '2' },
      ],
    };
    const b = {
      env: [
        { name: 'Z', value: '0' },
        { name: 'A', value: '1' },
        { name: 'B', value: '3' },
      ],
    };
    expect(fieldChanges(a, b)).toEqual([
      { kind: 'change', path: 'env[name=B].value', from: '2', to: '3' },
      { kind: 'add', path: 'env[name=Z]', to: { name: 'Z', value: '0' } },
    ]);
  });

  it('lists a created object field by field, whole, in its order, with named lists and Secret values as ever', () => {
    const p = plan('nginx:1.25');
    const fields = fieldChanges({}, p);
    expect(fields.map((f) => [f.kind, f.path])).toEqual(Object.keys(p).map((k) => ['add', k]));
    expect(fields.find((f) => f.path === 'spec')?.to).toEqual(p.spec);
    expect(renderFieldChanges(fieldChanges({}, p))).toBe(renderFieldChanges(decide({ plan: p }).fields));
    const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'db' }, data: { password: 'cw==' } };
    expect(fieldChanges({}, secret).find((f) => f.path === 'data')?.to).toEqual({ password: '***' });
    expect(fieldChanges({}, secret, { showSecrets: true }).find((f) => f.path === 'data')?.to).toEqual({
      password: 'cw==',
    });
  });

  it('masks Secret values unless asked, and still says which keys change', () => {
    const s = (password: string): Attributes => ({
      kind: 'Secret',
      metadata: { name: 'db' },
      data: { password, user: 'YWRtaW4=' },
    });
    expect(fieldChanges(s('b2xk'), s('bmV3'))).toEqual([
      { kind: 'change', path: 'data.password', from: '***', to: '***' },
    ]);
    expect(fieldChanges({ kind: 'Secret', metadata: { name: 'db' } }, s('bmV3'))).toEqual([
      { kind: 'add', path: 'data', to: { password: '***', user: '***' } },
    ]);
    expect(fieldChanges(s('b2xk'), s('bmV3'), { showSecrets: true })[0].to).toBe('bmV3');
    expect(maskSecret(s('bmV3')).data).toEqual({ password: '***', user: '***' });
    expect(
      JSON.stringify(renderFieldChanges(fieldChanges({ kind: 'Secret', metadata: { name: 'db' } }, s('bmV3')))),
    ).not.toContain('bmV3');
  });

  it('prints long values as YAML blocks', () => {
    const text = renderFieldChanges([
      {
        kind: 'add',
        path: 'spec.ports',
        to: [{ name: 'http', port: 80, targetPort: 'http', protocol: 'TCP', appProtocol: 'http' }],
      },
    ]);
    expect(text).toBe(
      '+ spec.ports:\n    - name: http\n      port: 80\n      targetPort: http\n      protocol: TCP\n      appProtocol: http',
    );
  });
});
