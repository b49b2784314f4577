import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { KclError, renderDiagnostic } from '../diagnostics/diagnostics.js';
import { readStateConfig, stateConfig } from './config.js';

function workspaceWith(config?: string): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kdeck-config-'));
  if (config !== undefined) {
    fs.mkdirSync(path.join(root, '.kdeck'));
    fs.writeFileSync(path.join(root, '.kdeck', 'config.yaml'), config);
  }
  return root;
}

function diagnostic(root: string): string {
  try {
    readStateConfig(root);
  } catch (e) {
    if (e instanceof KclError) return renderDiagnostic(e.diagnostic, (f) => fs.readFileSync(f, 'utf8'));
    throw e;
  }
  throw new Error('expected a diagnostic');
}

describe('the workspace state config', () => {
  it('defaults to local files, with kdeck-system and 60 s locks for the kubernetes backend', () => {
    expect(readStateConfig(workspaceWith())).toEqual({ backend: 'local', namespace: 'kdeck-system', lockSeconds: 60 });
    expect(readStateConfig(workspaceWith('# nothing yet\n'))).toEqual({
      backend: 'local',
      namespace: 'kdeck-system',
      lockSeconds: 60,
    });
  });

  it('reads state: {backend, context, namespace, leaseDurationSeconds}, and the flags override it', () => {
    const root = workspaceWith(
      'console: {theme: dark}\nstate:\n  backend: kubernetes\n  context: ops\n  namespace: team-state\n  leaseDurationSeconds: 15\n',
    );
    expect(readStateConfig(root)).toEqual({
      backend: 'kubernetes',
      context: 'ops',
      namespace: 'team-state',
      lockSeconds: 15,
    });
    expect(stateConfig(root, { stateBackend: 'local', stateNamespace: 'other' })).toEqual({
      backend: 'local',
      context: 'ops',
      namespace: 'other',
      lockSeconds: 15,
    });
    expect(() => stateConfig(root, { stateBackend: 's3' })).toThrow(
      '--state-backend s3 is not a state backend; use local or kubernetes',
    );
  });

  it('reports a mistake at its file, line and column', () => {
    const bad = diagnostic(workspaceWith('state:\n  backend: etcd\n'));
    expect(bad).toContain('state.backend must be local or kubernetes in .kdeck/config.yaml');
    expect(bad).toMatch(/config\.yaml:2:12\n/);
    const unknown = diagnostic(workspaceWith('state:\n  backend: local\n  lease: 5\n'));
    expect(unknown).toContain(
      'unknown setting state.lease (known: backend, context, namespace, leaseDurationSeconds) in .kdeck/config.yaml',
    );
    expect(unknown).toMatch(/config\.yaml:3:3\n/);
    expect(diagnostic(workspaceWith('state:\n  leaseDurationSeconds: 0.5\n'))).toContain(
      'state.leaseDurationSeconds must be a whole number of seconds, at least 1',
    );
    const malformed = diagnostic(workspaceWith('state:\n  backend: [kubernetes\n'));
    expect(malformed).toContain('malformed YAML in the kdeck config file');
    expect(malformed).toMatch(/config\.yaml:3:1/);
  });
});
