import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stackInputs } from './stack-inputs.js';
import { tempWorkspace } from './testing.js';
import { loadStack } from './workspace.js';

describe('stackInputs', () => {
  it('lists the settings, the KCL files and what they import, and the folders to watch', () => {
    const root = tempWorkspace({
      'kcl.mod': '[package]\nname = "t"\n',
      'pkg/models/a.k': 'schema A:\n    x: int = 1\n',
      'pkg/models/b.k': 'import pkg.util\n_y = util.one\n',
      'pkg/util/u.k': 'one = 1\n',
      'apps/shop/project.yaml': 'name: shop\n',
      'apps/shop/dev/stack.yaml': 'name: dev\n',
      'apps/shop/dev/kcl.yaml': 'kcl_cli_configs:\n  file:\n    - main.k\n',
      'apps/shop/dev/main.k': 'import pkg.models\na = models.A {}\n',
    });
    const inputs = stackInputs(loadStack(path.join(root, 'apps/shop/dev')).stack);
    const rel = (xs: string[]) => xs.map((x) => path.relative(root, x).split(path.sep).join('/'));
    expect(rel(inputs.files)).toEqual([
      'apps/shop/dev/kcl.yaml',
      'apps/shop/dev/main.k',
      'apps/shop/dev/stack.yaml',
      'apps/shop/project.yaml',
      'kcl.mod',
      'pkg/models/a.k',
      'pkg/models/b.k',
      'pkg/util/u.k',
    ]);
    expect(rel(inputs.folders)).toEqual(['apps/shop/crd', 'apps/shop/dev', 'pkg/models', 'pkg/util']);
  });
});
