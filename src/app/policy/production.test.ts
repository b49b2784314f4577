import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { listedProductionContexts, namedProduction, ProductionPolicy } from './production.js';

function workspaceWith(config: string): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kdeck-prod-'));
  fs.mkdirSync(path.join(root, '.kdeck'));
  fs.writeFileSync(path.join(root, '.kdeck', 'config.yaml'), config);
  return root;
}

describe('what is production', () => {
  it('is a context or cluster whose name says prod as a word', () => {
    expect(
      ['prod', 'eu-prod-1', 'production', 'gke_shop_prod', 'PROD'].map((name) => namedProduction({ name })),
    ).toEqual([true, true, true, true, true]);
    expect(namedProduction({ name: 'ctx-1', cluster: 'prod.example' })).toBe(true);
    expect(
      ['product', 'preprod', 'sandbox-a', 'staging', 'reproduce'].map((name) => namedProduction({ name })),
    ).toEqual([false, false, false, false, false]);
  });

  it('adds the contexts the workspace lists, and nothing else (a stack named prod does not make its cluster prod)', () => {
    const root = workspaceWith('state:\n  backend: local\nproduction:\n  contexts: [sandbox-b, gke_shop_eu]\n');
    const policy = new ProductionPolicy(
      [{ name: 'sandbox-a' }, { name: 'sandbox-b' }, { name: 'eu-prod' }],
      listedProductionContexts(root),
    );
    expect(policy.among(['sandbox-a', 'sandbox-b', 'eu-prod', 'sandbox-b'])).toEqual(['eu-prod', 'sandbox-b']);
    expect(policy.isProduction('gke_shop_eu')).toBe(true);
  });

  it('reports a malformed list at its line', () => {
    const root = workspaceWith('production:\n  contexts: sandbox-b\n');
    expect(() => listedProductionContexts(root)).toThrow(/production.contexts must be a list of context names/);
    const unknown = workspaceWith('production:\n  clusters: [a]\n');
    expect(() => listedProductionContexts(unknown)).toThrow(/unknown setting production.clusters/);
  });
});
