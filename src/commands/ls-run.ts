/**
 * What `kdeck ls` does: reads the Konfig repository and prints its projects and stacks with their
 * clusters, like `kusion ls`.
 */
import path from 'node:path';
import YAML from 'yaml';
import { loadWorkspace, type Project, type Workspace } from '../konfig/workspace.js';
import type { Format } from './ls.js';
import { table } from './table.js';

/** Shown where a stack names no cluster: it deploys to the kubeconfig's current context. */
const CURRENT_CONTEXT = '(current context)';

function listing(ws: Workspace) {
  return ws.projects.map((p) => ({
    name: p.name,
    path: p.path,
    stacks: p.stacks.map((s) => ({ name: s.name, path: s.path, ...(s.cluster ? { cluster: s.cluster } : {}) })),
  }));
}

function human(projects: Project[]): string {
  const rows = [['PROJECT', 'STACK', 'CLUSTER', 'PATH']];
  for (const p of projects) for (const s of p.stacks) rows.push([p.name, s.name, s.cluster ?? CURRENT_CONTEXT, s.path]);
  return table(rows);
}

function tree(ws: Workspace): string {
  const lines = [path.basename(ws.root)];
  ws.projects.forEach((p, i) => {
    const lastProject = i === ws.projects.length - 1;
    lines.push(`${lastProject ? '└── ' : '├── '}${p.name} (${p.path})`);
    const width = Math.max(0, ...p.stacks.map((s) => s.name.length));
    p.stacks.forEach((s, j) => {
      const branch = j === p.stacks.length - 1 ? '└── ' : '├── ';
      lines.push(`${lastProject ? '    ' : '│   '}${branch}${s.name.padEnd(width)}  ${s.cluster ?? CURRENT_CONTEXT}`);
    });
  });
  return lines.join('\n') + '\n';
}

function render(ws: Workspace, format: Format): string {
  switch (format) {
    case 'json':
      return JSON.stringify(listing(ws), null, 2) + '\n';
    case 'yaml':
      return YAML.stringify(listing(ws));
    case 'tree':
      return tree(ws);
    case 'human':
      return human(ws.projects);
  }
}

export function listWorkspace(dir: string | undefined, format: Format): void {
  const ws = loadWorkspace(dir ?? process.cwd());
  if (ws.projects.length === 0 && format === 'human') {
    process.stderr.write(`no projects under ${path.resolve(dir ?? '.')} (a project folder holds project.yaml)\n`);
    return;
  }
  process.stdout.write(render(ws, format));
}
