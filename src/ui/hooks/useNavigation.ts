/**
 * Where the user is (navigation.ts), kept in a ref that each dispatch updates at once as well
 * as in React state: a key handled right after another (several arrive together) must see
 * where the first one led, before React has redrawn.
 */
import { useCallback, useRef, useState } from 'react';
import { initialNav, navigate, type NavAction, type NavState } from '../navigation.js';

export function useNavigation(): { nav: NavState; current: () => NavState; dispatch: (a: NavAction) => void } {
  const [nav, setNav] = useState(initialNav);
  const ref = useRef(initialNav);
  const dispatch = useCallback((a: NavAction) => {
    ref.current = navigate(ref.current, a);
    setNav(ref.current);
  }, []);
  const current = useCallback(() => ref.current, []);
  return { nav, current, dispatch };
}
