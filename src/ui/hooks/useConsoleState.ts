/**
 * The console's state as React sees it: the session's store, read with useSyncExternalStore so
 * every view renders from one consistent snapshot.
 */
import { useSyncExternalStore } from 'react';
import type { ConsoleState, Store } from '../../app/console/state.js';

export function useConsoleState(store: Store<ConsoleState>): ConsoleState {
  return useSyncExternalStore(store.subscribe, store.get, store.get);
}
