import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { diagnosticOf } from '../kcl/testing.js';
import { compileStack } from './compile.js';
import { MINIMAL_STACK, tempWorkspace } from './testing.js';
import { findWorkspaceRoot, loadStack, loadWorkspace } from './workspace.js';

describe('workspace discovery', () => {
  it('finds projects and stacks below any folder of the repository, with their clusters', () => {
    const root = tempWorkspace({
      ...MINIMAL_STACK,
      'apps/shop/prod/stack.yaml': 'name: production\ncluster: sandbox-b\n',
      'apps/blog/project.yaml': '',
      'apps/blog/envs/qa/stack.yaml': 'name: qa\n',
      'apps/node_modules/x/project.yaml': 'name: ignored\n',
    });
    const ws = loadWorkspace(root);
    expect(ws.root).toBe(root);
    expect(ws.projects.map((p) => [p.name, p.path, p.stacks.map((s) => [s.name, s.path, s.cluster])])).toEqual([
      ['blog', 'apps/blog', [['qa', 'apps/blog/envs/qa', undefined]]],
      [
        'shop',
        'apps/shop',
        [
          ['dev', 'apps/shop/dev', undefined],
          ['production', 'apps/shop/prod', 'sandbox-b'],
        ],
      ],
    ]);
    // from inside a stack, the listing is that stack's project
    expect(loadWorkspace(path.join(root, 'apps/shop/dev')).projects.map((p) => p.name)).toEqual(['shop']);
  });

  it('refuses a folder outside any repository', () => {
    const dir = tempWorkspace({ 'x/stack.yaml': 'name: x\n' });
    const d = diagnosticOf(() => findWorkspaceRoot(path.join(dir, 'x')));
    expect(d.kind).toBe('WorkspaceError');
    expect(d.message).toContain('no kcl.mod at or above');
  });

  it('refuses a stack outside any project, naming its stack.yaml', () => {
    const root = tempWorkspace({ 'kcl.mod': '', 'loose/stack.yaml': 'name: loose\n' });
    const d = diagnosticOf(() => loadStack(path.join(root, 'loose')));
    expect(d.message).toContain('the stack loose is not inside a project');
    expect(d.position?.file).toBe(path.join(root, 'loose/stack.yaml'));
  });

  it('refuses a folder that is not a stack, listing the stacks of its project', () => {
    const root = tempWorkspace(MINIMAL_STACK);
    const d = diagnosticOf(() => loadStack(path.join(root, 'apps/shop')));
    expect(d.message).toContain('is not a stack folder (it has no stack.yaml)');
    expect(d.message).toContain('stacks of this project: dev');
  });

  it('reports malformed YAML at its line and column', () => {
    const root = tempWorkspace({ ...MINIMAL_STACK, 'apps/shop/dev/stack.yaml': 'name: dev\ncluster: [sandbox-a\n' });
    const d = diagnosticOf(() => loadStack(path.join(root, 'apps/shop/dev')));
    expect(d.message).toMatch(/^malformed YAML in the stack.yaml/);
    expect(d.position).toMatchObject({ file: path.join(root, 'apps/shop/dev/stack.yaml'), line: 3 });
  });

  it('refuses a cluster that is not a string', () => {
    const root = tempWorkspace({ ...MINIMAL_STACK, 'apps/shop/dev/stack.yaml': 'name: dev\ncluster: 3\n' });
    const d = diagnosticOf(() => loadStack(path.join(root, 'apps/shop/dev')));
    expect(d.message).toBe('cluster in stack.yaml must be a non-empty string');
    expect(d.position).toMatchObject({ line: 2, column: 10 });
  });
});

describe('stack compile inputs', () => {
  it('reads kcl.yaml and lets -D override its options', () => {
    const root = tempWorkspace(MINIMAL_STACK);
    const { spec, stack } = compileStack(path.join(root, 'apps/shop/dev'), { arguments: ['env=qa', 'mode=fast'] });
    expect(stack).toMatchObject({ name: 'dev', project: { name: 'shop' } });
    expect(spec.resources.map((r) => r.id)).toEqual(['v1:ConfigMap:shop-qa:settings', 'v1:Namespace:shop-qa']);
    expect(spec.resources[0].attributes.data).toEqual({ mode: 'fast' });
  });

  it('reads ci-test/settings.yaml before kcl.yaml, as kusion does', () => {
    const root = tempWorkspace({
      ...MINIMAL_STACK,
      'apps/shop/dev/kcl.yaml': 'kcl_cli_configs:\n  file: [main.k]\n',
      'apps/shop/dev/ci-test/settings.yaml': 'kcl_options:\n  - key: env\n    value: ci\n',
    });
    expect(compileStack(path.join(root, 'apps/shop/dev')).spec.resources[1].id).toBe('v1:Namespace:shop-ci');
  });

  it('names the kcl.yaml line of a file that does not exist', () => {
    const root = tempWorkspace({
      ...MINIMAL_STACK,
      'apps/shop/dev/kcl.yaml': 'kcl_cli_configs:\n  file:\n    - ../base/base.k\n    - main.k\n',
    });
    const d = diagnosticOf(() => compileStack(path.join(root, 'apps/shop/dev')));
    expect(d.kind).toBe('CannotFindModule');
    expect(d.message).toContain("the file '../base/base.k' named in kcl.yaml does not exist");
    expect(d.position).toMatchObject({ file: path.join(root, 'apps/shop/dev/kcl.yaml'), line: 3, column: 7 });
  });

  it('refuses a stack without kcl.yaml, pointing at its stack.yaml', () => {
    const { 'apps/shop/dev/kcl.yaml': _, ...rest } = MINIMAL_STACK;
    const root = tempWorkspace(rest);
    const d = diagnosticOf(() => compileStack(path.join(root, 'apps/shop/dev')));
    expect(d.message).toContain('the stack apps/shop/dev has no kcl.yaml');
    expect(d.position?.file).toBe(path.join(root, 'apps/shop/dev/stack.yaml'));
  });

  it('reports a settings file of the wrong shape at the offending entry', () => {
    const root = tempWorkspace({
      ...MINIMAL_STACK,
      'apps/shop/dev/kcl.yaml': 'kcl_cli_configs:\n  file: [main.k]\nkcl_options:\n  - env\n',
    });
    const d = diagnosticOf(() => compileStack(path.join(root, 'apps/shop/dev')));
    expect(d.message).toContain('each kcl_options entry needs a string key');
    // kcl's heading names no place; the place follows as a note, with its line and caret
    expect(d.related?.[0]?.position).toMatchObject({ line: 4, column: 5 });
  });

  it('reads a stack again after its stack.yaml and kcl.yaml change, in the same process', () => {
    const root = tempWorkspace({ ...MINIMAL_STACK, 'apps/shop/dev/stack.yaml': 'name: dev\ncluster: a\n' });
    const dir = path.join(root, 'apps/shop/dev');
    const compiled = () => {
      const { stack, spec } = compileStack(dir);
      return { cluster: stack.cluster, ids: spec.resources.map((r) => r.id) };
    };
    expect(compiled()).toEqual({ cluster: 'a', ids: ['v1:ConfigMap:shop-dev:settings', 'v1:Namespace:shop-dev'] });
    fs.writeFileSync(path.join(dir, 'stack.yaml'), 'name: dev\ncluster: b\n');
    fs.writeFileSync(
      path.join(dir, 'kcl.yaml'),
      fs.readFileSync(path.join(dir, 'kcl.yaml'), 'utf8').replace('dev', 'prod'),
    );
    expect(compiled()).toEqual({ cluster: 'b', ids: ['v1:ConfigMap:shop-prod:settings', 'v1:Namespace:shop-prod'] });
  });
});
