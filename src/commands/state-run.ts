/**
 * What the `kdeck state` commands do, on the workspace's backend (its config and the global
 * flags choose it). Only `show` prints state content, with Secret values masked unless asked.
 */
import readline from 'node:readline/promises';
import type { Command } from 'commander';
import YAML from 'yaml';
import { maskSecret } from '../diff/fields.js';
import type { Attributes } from '../model/resource.js';
import { findWorkspaceRoot, loadStack } from '../konfig/workspace.js';
import { describeHolder, describeLock, isExpired, type LockHolder, type StateBackend } from '../state/backend.js';
import { CONFIG_FILE } from '../state/config.js';
import { thisProcess } from '../state/holder.js';
import { migrateStates } from '../state/migrate.js';
import type { State, StateKey } from '../state/model.js';
import { UserError } from '../diagnostics/user-error.js';
import { globalFlags } from './command-flags.js';
import type { HistoryFlags, MigrateFlags, ShowFlags, StackStateFlags, UnlockFlags } from './state.js';
import { openStateSession, type StateSession } from '../app/state-session.js';
import { table } from './table.js';
import { stdinIsTerminal } from '../terminal-env.js';

function masked(state: State, showSecrets: boolean): State {
  return showSecrets
    ? state
    : {
        ...state,
        resources: state.resources.map((r) => ({ ...r, attributes: maskSecret(r.attributes as Attributes) })),
      };
}

async function withSession<T>(
  command: Command,
  root: string,
  fn: (s: StateSession) => Promise<T>,
  withClusters = false,
): Promise<T> {
  const session = await openStateSession(globalFlags(command), root, withClusters);
  try {
    return await fn(session);
  } finally {
    await session.close();
  }
}

/** The state keys of the stack in `flags.workdir` (all its clusters, or the one asked for). */
async function stackKeys(backend: StateBackend, flags: StackStateFlags): Promise<StateKey[]> {
  const { stack } = loadStack(flags.workdir);
  const keys = (await backend.list()).filter(
    (k) =>
      k.project === stack.project.name && k.stack === stack.name && (!flags.cluster || k.cluster === flags.cluster),
  );
  if (keys.length === 0) {
    const where = flags.cluster ? ` on ${flags.cluster}` : '';
    throw new UserError(
      `no state for stack ${stack.project.name}/${stack.name}${where} in ${backend.description}: it has not been applied${where ? ' there' : ''} yet`,
    );
  }
  return keys;
}

const rootOf = (flags: StackStateFlags) => loadStack(flags.workdir).root;

export async function listStates(dir: string, command: Command): Promise<void> {
  await withSession(command, findWorkspaceRoot(dir), async ({ backend }) => {
    const rows = [['PROJECT', 'STACK', 'CLUSTER', 'SERIAL', 'RESOURCES', 'MODIFIED', 'LOCK']];
    for (const key of await backend.list()) {
      const s = await backend.read(key);
      const holder = await backend.lockHolder(key);
      rows.push([
        key.project,
        key.stack,
        key.cluster,
        String(s?.serial ?? 0),
        String(s?.resources.length ?? 0),
        s?.modifiedTime ?? '',
        holder ? describeLock(holder) : '',
      ]);
    }
    process.stdout.write(
      rows.length === 1
        ? `no state yet in ${backend.description}: nothing has been applied from this workspace\n`
        : table(rows),
    );
  });
}

export async function showState(flags: ShowFlags, command: Command): Promise<void> {
  await withSession(command, rootOf(flags), async ({ backend }) => {
    const docs: string[] = [];
    for (const key of await stackKeys(backend, flags)) {
      const state = await backend.read(key);
      if (!state) continue;
      const holder = await backend.lockHolder(key);
      docs.push(
        `${holder ? `# locked by ${describeLock(holder)}\n` : ''}${YAML.stringify(masked(state, flags.showSecrets ?? false))}`,
      );
    }
    process.stdout.write(docs.join('---\n'));
  });
}

export async function showHistory(flags: HistoryFlags, command: Command): Promise<void> {
  const count = Number(flags.last);
  if (!Number.isInteger(count) || count < 1)
    throw new UserError(`--last ${flags.last} must be a whole number of at least 1`);
  await withSession(command, rootOf(flags), async ({ backend }) => {
    const rows = [['CLUSTER', 'OPERATION', 'OPERATOR', 'STARTED', 'ENDED', 'RESULT', 'CREATED', 'UPDATED', 'DELETED']];
    for (const key of await stackKeys(backend, flags)) {
      for (const op of await backend.history(key, count)) {
        rows.push([
          key.cluster,
          op.kind,
          op.operator,
          op.startTime,
          op.endTime ?? '',
          op.result,
          String(op.created),
          String(op.updated),
          String(op.deleted),
        ]);
      }
    }
    process.stdout.write(table(rows));
  });
}

async function confirmed(key: StateKey, holder: LockHolder): Promise<boolean> {
  if (!stdinIsTerminal())
    throw new UserError(
      `the lock on ${key.cluster} is held by ${describeHolder(holder)}; pass --yes with --force to remove it without a terminal`,
    );
  const rl = readline.createInterface({ input: process.stdin, output: process.stdout });
  try {
    const answer = await rl.question(
      `${key.cluster} is locked by ${describeLock(holder)}. Remove the lock only if that operation is gone. Type the cluster name to remove it: `,
    );
    return answer.trim() === key.cluster;
  } finally {
    rl.close();
  }
}

export async function unlockState(flags: UnlockFlags, command: Command): Promise<void> {
  if (globalFlags(command).readOnly) throw new UserError('state unlock is refused in --read-only mode');
  await withSession(command, rootOf(flags), async ({ backend }) => {
    for (const key of await stackKeys(backend, flags)) {
      const holder = await backend.lockHolder(key);
      if (!holder) {
        process.stdout.write(`${key.project}/${key.stack} on ${key.cluster} is not locked\n`);
        continue;
      }
      if (!isExpired(holder, new Date())) {
        if (!flags.force) {
          throw new UserError(
            `${key.project}/${key.stack} on ${key.cluster} is locked by ${describeLock(holder)}; wait for it, or, if that operation is gone, pass --force to remove the lock now`,
            1,
          );
        }
        if (!flags.yes && !(await confirmed(key, holder))) {
          process.stdout.write('left locked\n');
          continue;
        }
      }
      // only the lock that was shown goes: one taken since stays
      const removed = await backend.forceUnlock(key, holder);
      process.stdout.write(
        removed
          ? `unlocked ${key.project}/${key.stack} on ${key.cluster} (was held by ${describeHolder(holder)})\n`
          : `left locked: the lock of ${key.cluster} changed hands meanwhile\n`,
      );
    }
  });
}

export async function migrate(dir: string, flags: MigrateFlags, command: Command): Promise<void> {
  if (globalFlags(command).readOnly)
    throw new UserError('state migrate writes states and is refused in --read-only mode');
  const root = findWorkspaceRoot(dir);
  await withSession(
    command,
    root,
    async (session) => {
      const from = session.backendOf(flags.to === 'kubernetes' ? 'local' : 'kubernetes');
      const to = session.backendOf(flags.to);
      process.stdout.write(`Migrating the states of ${root}\n  from ${from.description}\n  to   ${to.description}\n`);
      const done = await migrateStates(
        from,
        to,
        () => thisProcess('migrate', new Date().toISOString()),
        (m) =>
          process.stdout.write(
            `  ${m.key.project}/${m.key.stack} on ${m.key.cluster}: serial ${m.serial}, ${m.resources} resources, ${m.outcome === 'copied' ? 'copied and verified' : 'already there, the same'}\n`,
          ),
      );
      if (done.length === 0) {
        process.stdout.write('No states to migrate.\n');
        return;
      }
      process.stdout.write(
        `Migrated ${done.length} state${done.length === 1 ? '' : 's'}; the source keeps its copies. kdeck uses the new backend once ${CONFIG_FILE} says \`state: {backend: ${flags.to}}\` (or with --state-backend ${flags.to}).\n`,
      );
    },
    true,
  );
}
