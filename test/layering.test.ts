/**
 * The rooms of src/ and the direction of their imports (DESIGN.md, README's Layout): a room may
 * import the rooms below it and the rooms of its own level, without forming a cycle; faces never
 * import each other; the sandbox is a library of its own that imports only the leaves.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'src');

/** Level of each room: higher levels may import lower ones. */
const LEVEL: Record<string, number> = {
  model: 0,
  diagnostics: 0,
  sandbox: 1,
  kcl: 1,
  konfig: 2,
  graph: 2,
  diff: 3,
  state: 3,
  health: 3,
  cluster: 3,
  workflows: 4,
  recovery: 4,
  app: 5,
  views: 6,
  cli: 7,
  commands: 7,
  ui: 7,
  /** The shipped program's entry: it runs the bundle of cli. */
  launch: 8,
};
/** Rooms that import only what is listed, whatever their level. */
const ONLY: Record<string, string[]> = {
  kcl: ['model', 'diagnostics'],
  sandbox: ['model', 'diagnostics'],
  model: [],
  diagnostics: [],
};
const FACES = new Set(['cli', 'commands', 'ui']);
/** Top-level leaves any room may import: they import nothing of src/ themselves. */
const LEAVES = new Set(['terminal-env', 'import-package', 'launch-mode']);

function roomOf(file: string): string {
  const rel = path.relative(SRC, file);
  const first = rel.split(path.sep)[0]!;
  return first.endsWith('.ts') || first.endsWith('.tsx') ? first.replace(/\.tsx?$/, '') : first;
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [p] : [];
  });
}

/** Every relative import of a file, static or dynamic, resolved to a file of src/. */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|^import\s+)['"](\.{1,2}\/[^'"]+)['"]/gm)) {
    const target = path.resolve(path.dirname(file), m[1]!).replace(/\.js$/, '');
    const found = ['.ts', '.tsx'].map((ext) => target + ext).find((p) => fs.existsSync(p));
    if (found) out.push(found);
  }
  return out;
}

const files = sourceFiles(SRC);
const edges = files.flatMap((from) => importsOf(from).map((to) => ({ from, to })));
const roomEdges = edges
  .map(({ from, to }) => ({ from: roomOf(from), to: roomOf(to), file: path.relative(SRC, from) }))
  .filter((e) => e.from !== e.to);

describe('the layering of src/', () => {
  it('knows every room', () => {
    const rooms = new Set(files.map(roomOf));
    expect([...rooms].filter((r) => LEVEL[r] === undefined && !LEAVES.has(r))).toEqual([]);
  });

  it('imports only downwards or sideways, faces never into each other, kcl and the sandbox only into leaves', () => {
    const wrong = roomEdges.filter(({ from, to }) => {
      const lf = LEVEL[from];
      const lt = LEVEL[to];
      if (lf === undefined || lt === undefined) return false;
      if (ONLY[from] && !ONLY[from]!.includes(to)) return true;
      if (FACES.has(from) && FACES.has(to) && !(from === 'cli')) return true;
      return lt > lf;
    });
    expect(wrong.map((e) => `${e.file} → ${e.to}`)).toEqual([]);
  });

  it('has no cycle between rooms', () => {
    const graph = new Map<string, Set<string>>();
    for (const { from, to } of roomEdges) {
      if (!graph.has(from)) graph.set(from, new Set());
      graph.get(from)!.add(to);
    }
    const cycles: string[] = [];
    const visit = (room: string, trail: string[]) => {
      for (const next of graph.get(room) ?? []) {
        if (next === trail[0]) cycles.push([...trail, next].join(' → '));
        else if (!trail.includes(next) && next > trail[0]!) visit(next, [...trail, next]);
      }
    };
    for (const room of graph.keys()) visit(room, [room]);
    expect(cycles).toEqual([]);
  });
});
