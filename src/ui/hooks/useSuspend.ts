/**
 * Handing the terminal to another program (`kubectl exec -it`) and taking it back: the console
 * leaves the alternate screen and stops reading keys (Ink's raw mode off, so the program gets
 * them), runs the program with the terminal as its stdio, and on its exit returns to the
 * alternate screen, where the next frame is drawn whole.
 */
import { spawn } from 'node:child_process';
import { useCallback } from 'react';
import { useStdin, useStdout } from 'ink';
import type { InteractiveCommand } from '../../app/pods/pod-tools.js';
import { ENTER_ALT_SCREEN, LEAVE_ALT_SCREEN, SHOW_CURSOR } from '../terminal.js';

/** How the program ended: its exit code, or why it could not run. */
export type Suspended = { code: number | null } | { error: string };

export function useSuspend(): (command: InteractiveCommand) => Promise<Suspended> {
  const { setRawMode, isRawModeSupported } = useStdin();
  const { stdout } = useStdout();
  return useCallback(
    async (command: InteractiveCommand): Promise<Suspended> => {
      stdout.write(SHOW_CURSOR + LEAVE_ALT_SCREEN);
      if (isRawModeSupported) setRawMode(false);
      try {
        return await new Promise<Suspended>((resolve) => {
          const child = spawn(command.file, command.args, {
            stdio: 'inherit',
            env: { ...process.env, ...command.env },
          });
          child.on('error', (e) => resolve({ error: `${command.file}: ${e.message}` }));
          child.on('exit', (code) => resolve({ code }));
        });
      } finally {
        if (isRawModeSupported) setRawMode(true);
        stdout.write(ENTER_ALT_SCREEN);
      }
    },
    [setRawMode, isRawModeSupported, stdout],
  );
}
