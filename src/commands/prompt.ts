/**
 * Asking on the terminal. The terminal is raw while readline reads, so Ctrl-C reaches readline,
 * not the process: it is handed to the command's interrupts like a signal.
 */
import readline from 'node:readline/promises';
import type { Interrupts } from '../app/policy/interrupts.js';

export async function ask(question: string, interrupts: Interrupts): Promise<string> {
  const rl = readline.createInterface({ input: process.stdin, output: process.stdout });
  const controller = new AbortController();
  rl.on('SIGINT', () => {
    process.stdout.write('\n');
    // the interrupt first, so that it (not readline's AbortError) is what the command hears
    interrupts.trigger();
    controller.abort();
  });
  try {
    return (await rl.question(question, { signal: controller.signal })).trim();
  } finally {
    rl.close();
  }
}
