/**
 * The `:` command line, as in k9s: a command word and its arguments. Parsing is pure; the
 * console carries the command out (commands.ts hook). The same table gives the help and the
 * completions, so what `?` lists is what `:` accepts.
 */
import { recoveryArgs } from '../app/console/recovery.js';
import { unknownCommand } from '../app/unknown-command.js';
import { VIEWS, viewByName, type ViewId } from './views.js';
import { parsePodCommand, POD_COMMANDS, type PodPaletteCommand } from './pod-palette.js';

export type PaletteCommand =
  | { kind: 'apply'; stack?: string; forceConflicts: boolean }
  | { kind: 'destroy'; stack?: string }
  | { kind: 'recover'; runbook: string; args: string[] }
  | { kind: 'rehearse'; runbook?: string; args: string[] }
  | { kind: 'resume'; runId: string }
  | { kind: 'ctx'; name?: string }
  | { kind: 'stack'; name: string }
  | { kind: 'view'; view: ViewId }
  | { kind: 'refresh' }
  | { kind: 'sort'; column: string }
  | { kind: 'scale'; replicas: string }
  | { kind: 'help' }
  | { kind: 'quit' }
  | PodPaletteCommand;

export interface CommandInfo {
  name: string;
  aliases: string[];
  usage: string;
  description: string;
}

export const COMMANDS: readonly CommandInfo[] = [
  {
    name: 'apply',
    aliases: [],
    usage: ':apply [--force-conflicts] [STACK]',
    description: 'apply the selected stack, or STACK (--force-conflicts: take back fields another manager owns)',
  },
  { name: 'destroy', aliases: [], usage: ':destroy [STACK]', description: 'destroy the selected stack, or STACK' },
  {
    name: 'recover',
    aliases: [],
    usage: ':recover RUNBOOK hosts=a,b',
    description: 'plan a recovery runbook (path from the workspace root)',
  },
  {
    name: 'rehearse',
    aliases: [],
    usage: ':rehearse [RUNBOOK hosts=a,b]',
    description: 'rehearse the planned recovery (or plan RUNBOOK first) on an embedded copy of its clusters',
  },
  {
    name: 'resume',
    aliases: [],
    usage: ':resume RUN_ID',
    description: 'a recovery run saved under .kdeck/runs, to carry on',
  },
  {
    name: 'ctx',
    aliases: ['context'],
    usage: ':ctx [NAME]',
    description: 'the context for stacks that name none (no NAME: pick one)',
  },
  {
    name: 'stack',
    aliases: [],
    usage: ':stack NAME',
    description: 'select a stack: project/stack, or a part of it that names one',
  },
  { name: 'view', aliases: [], usage: ':view NAME', description: `show a view: ${VIEWS.map((v) => v.id).join(', ')}` },
  { name: 'refresh', aliases: [], usage: ':refresh', description: 'compile and compare the selected stack again' },
  ...POD_COMMANDS,
  {
    name: 'sort',
    aliases: [],
    usage: ':sort [-]COLUMN',
    description: 'sort a list of pods: name, ready, status, restarts, age, node, ip (-COLUMN: descending)',
  },
  { name: 'scale', aliases: [], usage: ':scale REPLICAS', description: 'scale the selected workload (asks first)' },
  { name: 'help', aliases: [], usage: ':help', description: 'the keys and commands' },
  { name: 'q', aliases: ['quit', 'q!'], usage: ':q', description: 'quit' },
];

const find = (word: string) => COMMANDS.find((c) => c.name === word || c.aliases.includes(word));

/** The command a line means, or why it means none. */
export function parseCommand(line: string): PaletteCommand | { error: string } {
  const [word = '', ...args] = line.trim().replace(/^:/, '').split(/\s+/).filter(Boolean);
  const command = find(word);
  if (!command)
    return {
      error: word
        ? unknownCommand(
            word,
            COMMANDS.map((c) => c.name),
            ':',
          )
        : 'type a command (:help lists them)',
    };
  const usage = `usage: ${command.usage}`;
  switch (command.name) {
    case 'apply': {
      const forceConflicts = args.includes('--force-conflicts');
      const rest = args.filter((a) => a !== '--force-conflicts');
      if (rest.length > 1 || rest.some((a) => a.startsWith('-'))) return { error: usage };
      return { kind: 'apply', forceConflicts, ...(rest[0] ? { stack: rest[0] } : {}) };
    }
    case 'destroy':
      if (args.length > 1) return { error: usage };
      return { kind: 'destroy', ...(args[0] ? { stack: args[0] } : {}) };
    case 'recover':
    case 'rehearse': {
      const [runbook, ...rest] = args;
      if (!runbook && command.name === 'rehearse') return { kind: 'rehearse', args: [] };
      if (!runbook) return { error: `${usage} (for example :recover runbooks/AppRecovery.k hosts=web-1,web-2)` };
      const values = recoveryArgs(rest);
      const bad = values.find((v) => !/^[^=\s]+=[^=\s]+$/.test(v));
      if (bad) return { error: `${bad} is not key=value; ${usage}` };
      return command.name === 'recover'
        ? { kind: 'recover', runbook, args: values }
        : { kind: 'rehearse', runbook, args: values };
    }
    case 'resume':
      if (args.length !== 1) return { error: `${usage} (the Recovery view lists the unfinished runs)` };
      return { kind: 'resume', runId: args[0] };
    case 'ctx':
      if (args.length > 1) return { error: usage };
      return { kind: 'ctx', ...(args[0] ? { name: args[0] } : {}) };
    case 'stack':
      if (args.length !== 1) return { error: usage };
      return { kind: 'stack', name: args[0] };
    case 'view': {
      const v = args.length === 1 ? viewByName(args[0]) : undefined;
      return v ? { kind: 'view', view: v } : { error: `${usage}; the views are ${VIEWS.map((x) => x.id).join(', ')}` };
    }
    case 'refresh':
      return { kind: 'refresh' };
    case 'sort':
      if (args.length !== 1) return { error: `${usage} (for example :sort -restarts)` };
      return { kind: 'sort', column: args[0] };
    case 'scale':
      if (args.length !== 1) return { error: `${usage} (for example :scale 3)` };
      return { kind: 'scale', replicas: args[0] };
    case 'help':
      return { kind: 'help' };
    case 'logs':
    case 'port-forward':
    case 'port-forwards':
      return parsePodCommand(command.name, args);
    default:
      return { kind: 'quit' };
  }
}

/** Completions of the line's first word (Tab on the command line). */
export function completions(line: string): string[] {
  const text = line.replace(/^:/, '');
  if (/\s/.test(text)) return [];
  return COMMANDS.flatMap((c) => [c.name, ...c.aliases]).filter((n) => n.startsWith(text) && /^[a-z]/.test(n));
}

/** The stack a `:stack` or `:apply` argument names: exact, else the one key that contains it. */
export function matchStack(name: string, keys: readonly string[]): string | { error: string } {
  if (keys.includes(name)) return name;
  const found = keys.filter((k) => k.includes(name));
  if (found.length === 1) return found[0];
  if (found.length === 0) return { error: `no stack matches ${name}; the stacks are ${keys.join(', ')}` };
  return { error: `${name} matches ${found.join(', ')}; say which` };
}
