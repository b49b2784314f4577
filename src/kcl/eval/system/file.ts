/**
 * The `file` system module (kcl's crates/runtime/src/file), confined to the workspace: every path
 * goes through workspace.ts, which refuses those that resolve outside it. Relative paths are
 * taken from the work dir (the workspace root unless the context sets one).
 *
 * `delete` removes a file or an empty directory, as documented; kcl's runtime cannot remove a
 * directory on Linux, where unlinking one fails with EISDIR rather than ENOENT.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { expectStr, optionalArg, requiredArg, type Signature } from '../args.js';
import { UNDEFINED, type CallArgs, type ModuleValue, type Value } from '../values.js';
import { evalError, expectBool, makeModule, outside, sig, type SystemContext } from './common.js';
import { globPaths } from './glob.js';
import { io, ioMessage, readText, workspacePath } from './workspace.js';

function pathArg(call: CallArgs, index: number, name: string, fn: string): string {
  return expectStr(requiredArg(call, index, name), fn, name);
}

/** Copies a directory tree as kcl does: directories and regular files, not symlinks. */
function copyTree(ctx: SystemContext, src: string, dest: string): void {
  fs.mkdirSync(dest, { recursive: true });
  for (const entry of fs.readdirSync(src, { withFileTypes: true })) {
    const from = path.join(src, entry.name);
    // each destination is checked again: a symlink already inside `dest` could lead out
    const to = workspacePath(ctx, 'cp', path.join(dest, entry.name), { modifies: true });
    if (entry.isDirectory()) copyTree(ctx, from, to);
    else if (entry.isFile()) fs.copyFileSync(from, to);
  }
}

/** The file functions, each run in the calling program's context. */
type FileImpl = (call: CallArgs, ctx: SystemContext) => Value;

function fileImpls(): Array<readonly [Signature, FileImpl]> {
  const at = (ctx: SystemContext, fn: string, p: string, modifies = false): string =>
    workspacePath(ctx, fn, p, { modifies });

  const read: FileImpl = (call, ctx) => {
    const p = pathArg(call, 0, 'filepath', 'read');
    return readText(at(ctx, 'read', p), p);
  };

  const exists: FileImpl = (call, ctx) => fs.existsSync(at(ctx, 'exists', pathArg(call, 0, 'filepath', 'exists')));

  const abs: FileImpl = (call, ctx) => {
    const p = pathArg(call, 0, 'filepath', 'abs');
    const target = at(ctx, 'abs', p);
    try {
      return fs.realpathSync(target);
    } catch {
      return evalError(`Could not get the absolute path of ${p}`);
    }
  };

  const mkdir: FileImpl = (call, ctx) => {
    const p = pathArg(call, 0, 'directory', 'mkdir');
    const flag = optionalArg(call, 1, 'exists');
    const existsOk = flag !== undefined && expectBool(flag, 'mkdir', 'exists');
    const target = at(ctx, 'mkdir', p, true);
    try {
      fs.mkdirSync(target, { recursive: true });
    } catch (e) {
      const code = typeof e === 'object' && e !== null && 'code' in e ? e.code : undefined;
      if (!(existsOk && code === 'EEXIST')) evalError(`Failed to create directory '${p}': ${ioMessage(e)}`);
    }
    return null;
  };

  const remove: FileImpl = (call, ctx) => {
    const p = pathArg(call, 0, 'filepath', 'delete');
    const target = at(ctx, 'delete', p, true);
    io(`failed to delete '${p}'`, () => {
      if (fs.lstatSync(target).isDirectory()) fs.rmdirSync(target);
      else fs.unlinkSync(target);
    });
    return null;
  };

  const cp: FileImpl = (call, ctx) => {
    const src = pathArg(call, 0, 'src', 'cp');
    const dest = pathArg(call, 1, 'dest', 'cp');
    const from = at(ctx, 'cp', src);
    const to = at(ctx, 'cp', dest, true);
    const intoItself =
      fs.existsSync(from) && fs.statSync(from).isDirectory() && !path.relative(from, to).startsWith('..');
    // a copy into the tree being copied would never finish
    if (intoItself) evalError(`Failed to copy from '${src}' to '${dest}': the destination is inside the source`);
    io(`Failed to copy from '${src}' to '${dest}'`, () => {
      if (fs.statSync(from).isDirectory()) copyTree(ctx, from, to);
      else fs.copyFileSync(from, to);
    });
    return null;
  };

  const mv: FileImpl = (call, ctx) => {
    const src = pathArg(call, 0, 'src', 'mv');
    const dest = pathArg(call, 1, 'dest', 'mv');
    const from = at(ctx, 'mv', src, true);
    const to = at(ctx, 'mv', dest, true);
    io(`Failed to move '${src}' to '${dest}'`, () => fs.renameSync(from, to));
    return null;
  };

  const size: FileImpl = (call, ctx) => {
    const p = pathArg(call, 0, 'filepath', 'size');
    const target = at(ctx, 'size', p);
    return io(`failed to get size of '${p}'`, () => BigInt(fs.statSync(target).size));
  };

  const writer =
    (fn: string, append: boolean): FileImpl =>
    (call, ctx) => {
      const p = pathArg(call, 0, 'filepath', fn);
      const content = pathArg(call, 1, 'content', fn);
      const target = at(ctx, fn, p, true);
      const verb = append ? 'Failed to append to file' : 'Failed to create file';
      io(`${verb} '${p}'`, () => (append ? fs.appendFileSync(target, content) : fs.writeFileSync(target, content)));
      return null;
    };

  const readEnv: FileImpl = (call, ctx) => {
    const key = pathArg(call, 0, 'key', 'read_env');
    const value = ctx.readEnv ? ctx.readEnv(key) : process.env[key];
    return value ?? UNDEFINED;
  };

  return [
    [sig('read', ['filepath'], 1), read],
    [sig('glob', ['pattern'], 1), (call, ctx): Value => globPaths(ctx, pathArg(call, 0, 'pattern', 'glob'))],
    [sig('modpath', [], 0), (_, ctx): Value => ctx.modulePath ?? path.resolve(ctx.workspaceRoot)],
    [sig('workdir', [], 0), (_, ctx): Value => ctx.workdir ?? ''],
    [sig('current', [], 0), (_, ctx): Value => ctx.currentFile()],
    [sig('exists', ['filepath'], 1), exists],
    [sig('abs', ['filepath'], 1), abs],
    [sig('mkdir', ['directory', 'exists'], 1), mkdir],
    [sig('delete', ['filepath'], 1), remove],
    [sig('cp', ['src', 'dest'], 2), cp],
    [sig('mv', ['src', 'dest'], 2), mv],
    [sig('size', ['filepath'], 1), size],
    [sig('write', ['filepath', 'content'], 2), writer('write', false)],
    [sig('append', ['filepath', 'content'], 2), writer('append', true)],
    [sig('read_env', ['key'], 1), readEnv],
  ];
}

/** Every file function depends on the file system or the program's context. */
export function fileModule(): ModuleValue {
  return makeModule(
    'file',
    fileImpls().map(([signature, impl]) => [signature, outside(impl)] as const),
  );
}
