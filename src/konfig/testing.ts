/**
 * Test support for workspace tests: a throwaway Konfig repository written from a file map.
 */
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Writes `files` (relative path → text) under a new temporary folder and returns it. */
export function tempWorkspace(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(tmpdir(), 'kdeck-konfig-'));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), text);
  }
  return root;
}

/** A minimal valid stack: one Namespace and one ConfigMap that depends on it. */
export const MINIMAL_STACK = {
  'kcl.mod': '[package]\nname = "tiny"\n',
  'apps/shop/project.yaml': 'name: shop\n',
  'apps/shop/dev/stack.yaml': 'name: dev\n',
  'apps/shop/dev/kcl.yaml': 'kcl_cli_configs:\n  file:\n    - main.k\nkcl_options:\n  - key: env\n    value: dev\n',
  'apps/shop/dev/main.k': [
    '_env = option("env")',
    '_ns = "shop-${_env}"',
    'resources = [',
    '    {id = "v1:Namespace:${_ns}", type = "Kubernetes", attributes = {apiVersion = "v1", kind = "Namespace", metadata.name = _ns}}',
    '    {',
    '        id = "v1:ConfigMap:${_ns}:settings", type = "Kubernetes", dependsOn = ["v1:Namespace:${_ns}"]',
    '        attributes = {apiVersion = "v1", kind = "ConfigMap", metadata = {name = "settings", namespace = _ns}, data.mode = option("mode") or "normal"}',
    '    }',
    ']',
    '',
  ].join('\n'),
};
