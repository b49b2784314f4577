/**
 * Watch mode's eyes: chokidar on the workspace's KCL, YAML and kcl.mod files (not .kdeck, VCS
 * folders or node_modules), with the events of one save (an editor's write, rename and chmod)
 * gathered into one batch of changed paths.
 */
import fs, { type Stats } from 'node:fs';
import path from 'node:path';
import { watch } from 'chokidar';

export interface FileWatch {
  /** Resolves once the initial scan is done and changes are being reported. */
  ready: Promise<void>;
  close(): Promise<void>;
}

const WATCHED = /(\.k|\.ya?ml|\.json|^kcl\.mod)$/;
const SKIPPED_FOLDERS = new Set(['node_modules']);
/** Past chokidar's 50 ms window in which further changes of a file are dropped. */
const RECHECK_MS = 80;

/** Whether chokidar should leave `p` alone. */
function ignored(root: string, p: string, stats?: Stats): boolean {
  const rel = path.relative(root, p);
  if (rel === '') return false;
  const parts = rel.split(path.sep);
  if (parts.some((s) => s.startsWith('.') || SKIPPED_FOLDERS.has(s))) return true;
  return stats?.isFile() === true && !WATCHED.test(path.basename(p));
}

export function watchWorkspace(
  root: string,
  onChange: (files: string[]) => void,
  options: { debounceMs?: number; onError?: (message: string) => void } = {},
): FileWatch {
  const debounceMs = options.debounceMs ?? 30;
  const pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    timer = undefined;
    const files = [...pending].sort();
    pending.clear();
    if (files.length) onChange(files);
  };
  // chokidar drops a second change of a file within 50 ms of the first; a save right after
  // another (an editor's quick fix) would be lost, so each changed file is looked at again
  // once that window has passed
  const seen = new Map<string, number>();
  const rechecks = new Set<NodeJS.Timeout>();
  const mtimeOf = (p: string) => {
    try {
      return fs.statSync(p).mtimeMs;
    } catch {
      return -1;
    }
  };
  const note = (p: string) => {
    if (!WATCHED.test(path.basename(p))) return;
    const file = path.resolve(root, p);
    pending.add(file);
    if (timer) clearTimeout(timer);
    timer = setTimeout(flush, debounceMs);
    seen.set(file, mtimeOf(file));
    const again = setTimeout(() => {
      rechecks.delete(again);
      if (mtimeOf(file) !== seen.get(file)) note(file);
    }, RECHECK_MS);
    rechecks.add(again);
  };
  const watcher = watch(root, { ignoreInitial: true, ignored: (p: string, stats?: Stats) => ignored(root, p, stats) });
  watcher.on('add', note).on('change', note).on('unlink', note);
  watcher.on('error', (e: unknown) =>
    options.onError?.(`watching ${root}: ${e instanceof Error ? e.message : String(e)}`),
  );
  const ready = new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  return {
    ready,
    async close() {
      if (timer) clearTimeout(timer);
      for (const t of rechecks) clearTimeout(t);
      await watcher.close();
    },
  };
}
