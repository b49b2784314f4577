/**
 * `kdeck state ls | show | unlock`: the recorded states of a workspace, one stack's state, and
 * removing a lock an operation left behind.
 */
import readline from 'node:readline/promises';
import { Command } from 'commander';
import YAML from 'yaml';
import { maskSecret } from '../diff/fields.js';
import type { Attributes } from '../konfig/spec.js';
import { findWorkspaceRoot, loadStack } from '../konfig/workspace.js';
import { describeHolder } from '../state/backend.js';
import { LocalStateBackend } from '../state/local.js';
import type { State } from '../state/model.js';
import { UserError } from '../user-error.js';
import { globalFlags } from './command-flags.js';
import { table } from './table.js';

function masked(state: State, showSecrets: boolean): State {
  return showSecrets ? state : { ...state, resources: state.resources.map((r) => ({ ...r, attributes: maskSecret(r.attributes as Attributes) })) };
}

/** The stack of `dir` and the clusters it has states on (all, or the one asked for). */
async function stackStates(dir: string, cluster: string | undefined) {
  const { root, stack } = loadStack(dir);
  const backend = new LocalStateBackend(root);
  const keys = (await backend.list()).filter((k) => k.project === stack.project.name && k.stack === stack.name && (!cluster || k.cluster === cluster));
  if (keys.length === 0) throw new UserError(`no state for stack ${stack.project.name}/${stack.name}${cluster ? ` on ${cluster}` : ''}: it has not been applied${cluster ? ' there' : ''} yet`);
  return { backend, keys };
}

export function stateCommand(): Command {
  const state = new Command('state').description('the recorded state of stacks: what kdeck last applied, and its locks');
  state
    .command('ls')
    .description('list the states of the workspace')
    .argument('[dir]', 'a folder of the workspace', '.')
    .action(async (dir: string) => {
      const backend = new LocalStateBackend(findWorkspaceRoot(dir));
      const rows = [['PROJECT', 'STACK', 'CLUSTER', 'SERIAL', 'RESOURCES', 'MODIFIED', 'LOCK']];
      for (const key of await backend.list()) {
        const s = await backend.read(key);
        const holder = await backend.lockHolder(key);
        rows.push([key.project, key.stack, key.cluster, String(s?.serial ?? 0), String(s?.resources.length ?? 0), s?.modifiedTime ?? '', holder ? describeHolder(holder) : '']);
      }
      if (rows.length === 1) {
        process.stdout.write('no state yet: nothing has been applied from this workspace\n');
        return;
      }
      process.stdout.write(table(rows));
    });
  state
    .command('show')
    .description('print the state of the stack in the current folder (Secret values masked)')
    .option('-w, --workdir <dir>', 'the stack folder', '.')
    .option('--cluster <name>', 'only the state on this cluster')
    .option('--show-secrets', 'print Secret values')
    .action(async (flags: { workdir: string; cluster?: string; showSecrets?: boolean }) => {
      const { backend, keys } = await stackStates(flags.workdir, flags.cluster);
      const states = await Promise.all(keys.map(async (k) => masked((await backend.read(k))!, flags.showSecrets ?? false)));
      process.stdout.write(states.map((s) => YAML.stringify(s)).join('---\n'));
    });
  state
    .command('unlock')
    .description('remove the lock of the stack in the current folder, left by an operation that died')
    .option('-w, --workdir <dir>', 'the stack folder', '.')
    .option('--cluster <name>', 'only the lock on this cluster')
    .option('-y, --yes', 'do not ask for confirmation')
    .action(async (flags: { workdir: string; cluster?: string; yes?: boolean }, command: Command) => {
      if (globalFlags(command).readOnly) throw new UserError('state unlock is refused in --read-only mode');
      const { backend, keys } = await stackStates(flags.workdir, flags.cluster);
      for (const key of keys) {
        const holder = await backend.lockHolder(key);
        if (!holder) continue;
        if (!flags.yes) {
          if (!process.stdin.isTTY) throw new UserError(`the lock on ${key.cluster} is held by ${describeHolder(holder)}; pass --yes to remove it without a terminal`);
          const rl = readline.createInterface({ input: process.stdin, output: process.stdout });
          const answer = await rl.question(`${key.cluster} is locked by ${describeHolder(holder)}. Remove the lock only if that operation is gone. Type the cluster name to remove it: `);
          rl.close();
          if (answer.trim() !== key.cluster) {
            process.stdout.write('left locked\n');
            continue;
          }
        }
        await backend.forceUnlock(key);
        process.stdout.write(`unlocked ${key.project}/${key.stack} on ${key.cluster} (was held by ${describeHolder(holder)})\n`);
      }
    });
  return state;
}
