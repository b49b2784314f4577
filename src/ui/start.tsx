/**
 * Running the console on a terminal: the session over the workspace's clusters (or its
 * embedded sandbox), the Ink app on the alternate screen, and a tidy exit that gives the
 * terminal back as it was, whether the user quits, a signal arrives or something throws.
 */
import fs from 'node:fs';
import path from 'node:path';
import { render } from 'ink';
import { openClusters, type WorkspaceOptions } from '../app/workspace.js';
import { backendOf } from '../app/state-session.js';
import { findWorkspaceRoot } from '../konfig/workspace.js';
import { stateConfig } from '../state/config.js';
import { errorMessage } from '../diagnostics/user-error.js';
import { App } from './App.js';
import { RENDER_OPTIONS } from './render-options.js';
import { KEYMAP_FILE, loadKeymap } from './keymap.js';
import { WorkerCompiler } from '../app/console/compiler.js';
import { unfinishedRuns } from '../workflows/recovery/run-store.js';
import { ConsoleSession } from '../app/console/session.js';
import { ENTER_ALT_SCREEN, LEAVE_ALT_SCREEN, SHOW_CURSOR } from './terminal.js';

/** The workspace's runbook files, relative to its root, for the Recovery view to offer. */
function runbooks(root: string): string[] {
  const dir = path.join(root, 'runbooks');
  try {
    return fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.k'))
      .sort()
      .map((f) => `runbooks/${f}`);
  } catch {
    return [];
  }
}

/**
 * Anything written to the console by a library (xstate's logger, a stray warning) would tear
 * the screen: while the console runs it goes to .kdeck/console.log.
 */
function captureConsole(root: string): () => void {
  const file = path.join(root, '.kdeck', 'console.log');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const original = {
    log: console.log,
    info: console.info,
    warn: console.warn,
    error: console.error,
    debug: console.debug,
  };
  const write = (...args: unknown[]) =>
    fs.appendFileSync(file, `${new Date().toISOString()} ${args.map(String).join(' ')}\n`);
  Object.assign(console, { log: write, info: write, warn: write, error: write, debug: write });
  return () => Object.assign(console, original);
}

export async function runConsole(
  dir: string,
  global: WorkspaceOptions,
  console_: { showSecrets: boolean } = { showSecrets: false },
): Promise<void> {
  const root = findWorkspaceRoot(dir);
  const config = stateConfig(root, global);
  const { clusterSet, close } = await openClusters(global, root);
  const keymap = loadKeymap(root);
  const session = new ConsoleSession({
    dir,
    clusterSet,
    backend: backendOf(config.backend, root, config, clusterSet),
    compiler: new WorkerCompiler({ readOnly: global.readOnly === true }),
    contexts: global.context,
    readOnly: global.readOnly === true,
    showSecrets: console_.showSecrets,
    watch: true,
  });
  for (const problem of keymap.problems) session.log('warn', `keymap: ${problem}`);
  const restoreConsole = captureConsole(root);
  const stdout = process.stdout;
  let restored = false;
  const restoreTerminal = () => {
    if (restored) return;
    restored = true;
    stdout.write(SHOW_CURSOR + LEAVE_ALT_SCREEN);
  };
  stdout.write(ENTER_ALT_SCREEN);
  const app = render(
    <App
      control={session}
      bindings={keymap.bindings}
      keymapFile={keymap.file ?? path.join(root, KEYMAP_FILE)}
      runbooks={runbooks(root)}
      unfinished={unfinishedRuns(root)}
    />,
    RENDER_OPTIONS,
  );
  const onSignal = () => app.unmount();
  // a bug must not leave the terminal on the alternate screen, nor print a stack trace on it
  const onCrash = (e: unknown) => {
    restoreTerminal();
    restoreConsole();
    process.stderr.write(
      `kdeck: internal error: ${errorMessage(e)}\nThis is a bug in kdeck, not in your input; please report it with what you were doing (details in ${path.join(root, '.kdeck', 'console.log')}).\n`,
    );
    fs.appendFileSync(path.join(root, '.kdeck', 'console.log'), `${e instanceof Error ? e.stack : String(e)}\n`);
    process.exit(1);
  };
  process.on('SIGTERM', onSignal).on('SIGHUP', onSignal).on('SIGINT', onSignal);
  process.on('uncaughtException', onCrash);
  try {
    await session.start();
    await app.waitUntilExit();
  } finally {
    app.unmount();
    restoreTerminal();
    restoreConsole();
    process.off('SIGTERM', onSignal).off('SIGHUP', onSignal).off('SIGINT', onSignal);
    process.off('uncaughtException', onCrash);
    await session.close();
    await close();
  }
}
