import { useEffect, useState } from 'react';
import { Text } from 'ink';
import { describe, expect, it } from 'vitest';
import { renderTui } from '../testing/render-tui.js';
import { useSuspend, type Suspended } from './useSuspend.js';

/** Runs `file args` once with the console stepped aside, and shows how it ended. */
function Runs({ file, args }: { file: string; args: string[] }) {
  const suspend = useSuspend();
  const [out, setOut] = useState<Suspended>();
  const [command] = useState({ file, args, env: {}, line: [file, ...args].join(' ') });
  useEffect(() => {
    void suspend(command).then(setOut);
  }, [suspend, command]);
  return <Text>{out ? JSON.stringify(out) : 'running'}</Text>;
}

describe('handing the terminal to a program', () => {
  it('runs it to its end and comes back with its exit code', async () => {
    const tui = await renderTui(<Runs file="sh" args={['-c', 'exit 3']} />);
    await tui.waitFor('{"code":3}');
    tui.unmount();
  });

  it('comes back with why a program that cannot start did not run', async () => {
    const tui = await renderTui(<Runs file="/nonexistent/kubectl" args={['exec']} />);
    const f = await tui.waitFor('"error"');
    expect(f).toContain('/nonexistent/kubectl: spawn /nonexistent/kubectl ENOENT');
    tui.unmount();
  });
});
