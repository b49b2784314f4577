/**
 * What the status line may still say. A message or an event about something going on (an
 * apply, a recovery, a compile) belongs to it and goes when it ends, so the line never tells of
 * a compile that has finished, an apply that has stopped or an error that has moved.
 */
import { isCurrent, type ConsoleEvent, type ConsoleState } from '../app/console/state.js';
import type { Message } from './navigation.js';

export function currentMessage(message: Message | undefined, state: ConsoleState): Message | undefined {
  const o = message?.origin;
  if (!message || !o) return message;
  switch (o.kind) {
    case 'operation':
      return state.operations.get(o.stack)?.running ? message : undefined;
    case 'recovery':
      return state.recovery?.state === 'running' && !state.recovery.settled ? message : undefined;
    case 'rehearsal':
      return state.recovery?.state === 'planned' && state.recovery.rehearsal?.state === 'rehearsing'
        ? message
        : undefined;
    case 'compile':
      return (state.stacks.find((s) => s.key === o.stack)?.compiles ?? Infinity) <= o.compiles ? message : undefined;
  }
}

/** The newest event, while it is still news. */
export function currentEvent(state: ConsoleState): ConsoleEvent | undefined {
  const newest = state.events[state.events.length - 1];
  return newest && isCurrent(newest, state) ? newest : undefined;
}
