/**
 * The terminal's size, following resizes. Tests and golden frames fix it through
 * TerminalSizeContext (ink-testing-library's stdout has no rows).
 */
import { createContext, useContext, useEffect, useState } from 'react';
import { useStdout } from 'ink';

export interface TerminalSize {
  columns: number;
  rows: number;
}

export const TerminalSizeContext = createContext<TerminalSize | undefined>(undefined);

export function useTerminalSize(): TerminalSize {
  const fixed = useContext(TerminalSizeContext);
  const { stdout } = useStdout();
  const read = (): TerminalSize => ({ columns: stdout.columns || 80, rows: stdout.rows || 24 });
  const [size, setSize] = useState(read);
  useEffect(() => {
    if (fixed) return;
    const onResize = () => setSize(read());
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout, fixed]);
  return fixed ?? size;
}
