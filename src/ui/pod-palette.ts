/**
 * The `:` commands for pods: `:logs TYPE/NAME [-c CONTAINER] [-p]`, `:port-forward TYPE/NAME
 * PORT...` (or `:port-forward stop ID|all`) and `:port-forwards`. Parsing only; the console
 * carries them out (pod-commands.ts).
 */
import { isPortSpec } from '../app/pods/port-forwards.js';
import type { CommandInfo } from './palette.js';

export type PodPaletteCommand =
  | { kind: 'logs'; target: string; container?: string; previous: boolean }
  | { kind: 'port-forward'; target: string; ports: string[] }
  | { kind: 'port-forward-stop'; id: number | 'all' }
  | { kind: 'port-forwards' };

export const POD_COMMANDS: readonly CommandInfo[] = [
  {
    name: 'logs',
    aliases: ['log'],
    usage: ':logs TYPE/NAME [-c CONTAINER] [-p]',
    description: "the log of pod/NAME (or deploy/NAME: all its pods) in the selected stack's namespace",
  },
  {
    name: 'port-forward',
    aliases: ['pf'],
    usage: ':port-forward TYPE/NAME LOCAL:REMOTE',
    description: 'kubectl port-forward in the background (:port-forward stop ID|all stops it)',
  },
  {
    name: 'port-forwards',
    aliases: ['pfs'],
    usage: ':port-forwards',
    description: 'the port-forwards running, with what kubectl last said',
  },
];

export function parsePodCommand(name: string, args: string[]): PodPaletteCommand | { error: string } {
  const usage = `usage: ${POD_COMMANDS.find((c) => c.name === name)?.usage ?? name}`;
  switch (name) {
    case 'logs': {
      const rest = [...args];
      let container: string | undefined;
      let previous = false;
      const words: string[] = [];
      while (rest.length) {
        const a = rest.shift()!;
        if (a === '-c' || a === '--container') {
          container = rest.shift();
          if (!container) return { error: `-c needs a container name; ${usage}` };
        } else if (a === '-p' || a === '--previous') previous = true;
        else if (a.startsWith('-')) return { error: `${a} is not an option of :logs; ${usage}` };
        else words.push(a);
      }
      if (words.length !== 1) return { error: `${usage} (for example :logs pod/web-1 -c app)` };
      return { kind: 'logs', target: words[0]!, previous, ...(container ? { container } : {}) };
    }
    case 'port-forward': {
      if (args[0] === 'stop') {
        const id = args[1] === 'all' ? 'all' : Number(args[1]);
        if (args.length !== 2 || (id !== 'all' && !Number.isInteger(id)))
          return { error: 'usage: :port-forward stop ID|all (:port-forwards lists the ids)' };
        return { kind: 'port-forward-stop', id };
      }
      const [target, ...ports] = args;
      if (!target || ports.length === 0) return { error: `${usage} (for example :port-forward svc/web 8080:80)` };
      const bad = ports.find((p) => !isPortSpec(p));
      if (bad) return { error: `${bad} is not a port (LOCAL:REMOTE, LOCAL or :REMOTE); ${usage}` };
      return { kind: 'port-forward', target, ports };
    }
    default:
      return { kind: 'port-forwards' };
  }
}
