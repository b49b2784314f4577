/**
 * Schemas as a real API server has them: OpenAPI v3 documents with the schema of each kind
 * (what `kubectl explain` reads), CRD structural schemas enforced on custom resources (422 in the
 * server's words, unknown fields pruned or, under fieldValidation=Strict, refused), Strict
 * refusing unknown fields of built-in kinds, and a CRD's printer columns in table output. Runs
 * against a real cluster too (see support/kube-target.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractTarget, eventually, raw, type Target } from './support/kube-target.js';

let t: Target;
let group = '';
beforeAll(async () => {
  t = await contractTarget();
  group = `${t.namespace}.example.com`;
});
afterAll(async () => {
  await raw(t.kc, 'DELETE', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gizmos.${group}`);
  await t?.close();
});

const json = { 'Content-Type': 'application/json' };

function gizmo(name: string, spec: unknown): string {
  return JSON.stringify({ apiVersion: `${group}/v1`, kind: 'Gizmo', metadata: { name }, spec });
}

const gizmos = () => `/apis/${group}/v1/namespaces/${t.namespace}/gizmos`;

describe('OpenAPI v3', () => {
  it('lists every group-version, and gives each kind a schema tagged with its group, version and kind', async () => {
    const index = (await raw(t.kc, 'GET', '/openapi/v3')).json().paths as Record<string, { serverRelativeURL: string }>;
    expect(Object.keys(index)).toEqual(expect.arrayContaining(['api/v1', 'apis/apps/v1']));
    const doc = (await raw(t.kc, 'GET', index['apis/apps/v1']!.serverRelativeURL)).json();
    const schemas = (doc.components as { schemas: Record<string, Record<string, unknown>> }).schemas;
    const deployment = Object.values(schemas).find((s) =>
      (s['x-kubernetes-group-version-kind'] as { kind: string }[] | undefined)?.some((g) => g.kind === 'Deployment'),
    );
    expect(deployment).toBeDefined();
    const props = deployment!.properties as Record<string, unknown>;
    expect(Object.keys(props)).toEqual(expect.arrayContaining(['apiVersion', 'kind', 'metadata', 'spec']));
  });
});

describe('custom resources against their schema', () => {
  beforeAll(async () => {
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: `gizmos.${group}` },
      spec: {
        group,
        scope: 'Namespaced',
        names: { plural: 'gizmos', singular: 'gizmo', kind: 'Gizmo' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            additionalPrinterColumns: [{ name: 'Size', type: 'integer', jsonPath: '.spec.size' }],
            schema: {
              openAPIV3Schema: {
                type: 'object',
                properties: {
                  spec: {
                    type: 'object',
                    required: ['size'],
                    properties: {
                      size: { type: 'integer', minimum: 1, maximum: 10 },
                      color: { type: 'string', enum: ['red', 'blue'] },
                      code: { type: 'string', pattern: '^[a-z]+$' },
                      extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
                    },
                  },
                },
              },
            },
          },
        ],
      },
    };
    const made = await raw(
      t.kc,
      'POST',
      '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
      JSON.stringify(crd),
      json,
    );
    expect(made.status).toBe(201);
    await eventually(
      'the Gizmo kind to be served',
      async () => {
        const r = await raw(t.kc, 'GET', gizmos());
        return r.status === 200 ? true : undefined;
      },
      30_000,
    );
  }, 40_000);

  it('answers 422 Invalid in the API server words for a wrong type, a bound, an enum, a pattern, a required field', async () => {
    const cases: [unknown, string][] = [
      [{ size: 'big' }, 'spec.size: Invalid value: "string": spec.size in body must be of type integer: "string"'],
      [{ size: 20 }, 'spec.size: Invalid value: 20: spec.size in body should be less than or equal to 10'],
      [{ size: 2, color: 'green' }, 'spec.color: Unsupported value: "green": supported values: "red", "blue"'],
      [{ size: 2, code: 'A1' }, `spec.code: Invalid value: "A1": spec.code in body should match '^[a-z]+$'`],
      [{ color: 'red' }, 'spec.size: Required value'],
    ];
    for (const [spec, message] of cases) {
      const r = await raw(t.kc, 'POST', gizmos(), gizmo('bad', spec), json);
      expect(r.status).toBe(422);
      expect(r.json().reason).toBe('Invalid');
      expect(String(r.json().message)).toContain(message);
    }
  });

  it('prunes unknown fields, keeps preserved ones, and refuses unknown fields under fieldValidation=Strict', async () => {
    const made = await raw(t.kc, 'POST', gizmos(), gizmo('g1', { size: 3, stray: 1, extra: { any: 'thing' } }), json);
    expect(made.status).toBe(201);
    expect(made.json().spec).toEqual({ size: 3, extra: { any: 'thing' } });
    const strict = await raw(
      t.kc,
      'POST',
      `${gizmos()}?fieldValidation=Strict`,
      gizmo('g2', { size: 3, stray: 1 }),
      json,
    );
    expect(strict.status).toBe(400);
    expect(String(strict.json().message)).toContain('strict decoding error: unknown field "spec.stray"');
  });

  it('prints the additionalPrinterColumns in table output', async () => {
    const table = (
      await raw(t.kc, 'GET', gizmos(), undefined, { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' })
    ).json();
    const columns = (table.columnDefinitions as { name: string }[]).map((c) => c.name);
    expect(columns).toContain('Size');
    const row = (table.rows as { cells: unknown[] }[])[0]!;
    expect(row.cells[columns.indexOf('Size')]).toBe(3);
  });
});

describe('fieldValidation=Strict on built-in kinds', () => {
  it('refuses a Deployment with an unknown field in its pod template', async () => {
    const body = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'typo' },
      spec: {
        selector: { matchLabels: { app: 'typo' } },
        template: {
          metadata: { labels: { app: 'typo' } },
          spec: { containers: [{ name: 'c', image: 'busybox:1.36', imagePullPolice: 'Always' }] },
        },
      },
    };
    const path = `/apis/apps/v1/namespaces/${t.namespace}/deployments?fieldValidation=Strict`;
    const r = await raw(t.kc, 'POST', path, JSON.stringify(body), json);
    expect(r.status).toBe(400);
    expect(String(r.json().message)).toContain(
      'strict decoding error: unknown field "spec.template.spec.containers[0].imagePullPolice"',
    );
  });
});
