/**
 * kdeck's command line: argv to a command. Every failure the user can cause ends here as a
 * diagnostic or a sentence and an exit code (0 ok, 1 operation failed, 2 usage or input error);
 * never a stack trace.
 */
import { interactiveTerminal } from './terminal-env.js';
import fs from 'node:fs';
import { Command, CommanderError, Option } from 'commander';
import { collect } from './commands/command-flags.js';
import { compileCommand } from './commands/compile.js';
import { kclRunCommand } from './commands/kcl.js';
import { lsCommand } from './commands/ls.js';
import { operationCommand } from './commands/apply.js';
import { previewCommand } from './commands/preview.js';
import { recoverCommand } from './commands/recover.js';
import { stateCommand } from './commands/state.js';
import { sandboxCommand } from './commands/sandbox.js';
import { globalFlags } from './commands/command-flags.js';
import { NON_INTERACTIVE, uiCommand } from './commands/ui.js';
import { versionCommand, versionLine } from './commands/version.js';
import { unknownCommand } from './app/unknown-command.js';
import { KclError, renderDiagnostic } from './diagnostics/diagnostics.js';
import { BACKENDS, DEFAULT_STATE_NAMESPACE } from './state/backend.js';
import { errorMessage, SilentExit, UserError } from './diagnostics/user-error.js';
import { loadInk } from './views/ink.js';

const EXIT_FAILED = 1;
const EXIT_USAGE = 2;

/** The console face, loaded only when it runs; it needs a terminal for its keys. */
async function runUi(workspace: string | undefined, command: Command): Promise<void> {
  if (!interactiveTerminal()) {
    throw new UserError(
      `kdeck ui is an interactive console and needs a terminal (stdin and stdout are not both a TTY here); without one, use the commands: ${NON_INTERACTIVE}`,
    );
  }
  (await import('./ui/runtime.js')).tuneConsoleRuntime();
  await loadInk();
  const { runConsole } = await import('./ui/start.js');
  await runConsole(workspace ?? '.', globalFlags(command), {
    showSecrets: command.opts<{ showSecrets?: boolean }>().showSecrets === true,
  });
}

function program(): Command {
  const root = new Command('kdeck')
    .description('an interactive ops console for Konfig repositories written in KCL')
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) })
    // the version is read when asked for, not on every start
    .option('-v, --version', 'print the version of kdeck')
    .on('option:version', () => {
      process.stdout.write(`${versionLine()}\n`);
      throw new SilentExit(0);
    })
    .option('--kubeconfig <file>', 'the kubeconfig to use (default: KUBECONFIG, then ~/.kube/config)')
    .option(
      '--context <name>',
      'the kube context for stacks that name no cluster (default: the current context); the console takes it several times',
      collect,
      [],
    )
    .option('--read-only', 'refuse every action that changes a cluster or a state')
    .option(
      '--sandbox',
      "use the workspace's embedded sandbox clusters (sandbox-a, sandbox-b; kept in .kdeck/sandbox) instead of a kubeconfig",
    )
    .addOption(
      new Option(
        '--state-backend <backend>',
        'where states and locks live (default: state.backend in .kdeck/config.yaml, else local)',
      ).choices(BACKENDS),
    )
    .option(
      '--state-context <name>',
      'the kube context whose cluster keeps the states of the kubernetes backend (default: state.context, else the current context)',
    )
    .option(
      '--state-namespace <name>',
      `the namespace of the kubernetes backend's Secrets and Leases (default: state.namespace, else ${DEFAULT_STATE_NAMESPACE})`,
    );
  root.command('kcl').description('the KCL compiler').addCommand(kclRunCommand());
  root.addCommand(compileCommand());
  root.addCommand(lsCommand());
  root.addCommand(previewCommand());
  root.addCommand(operationCommand('apply'));
  root.addCommand(operationCommand('destroy'));
  root.addCommand(stateCommand());
  root.addCommand(recoverCommand());
  root.addCommand(sandboxCommand());
  root.addCommand(uiCommand(runUi));
  root.addCommand(versionCommand());
  // a bare `kdeck` opens the console on a terminal; elsewhere (a script, a pipe) it shows the
  // help; a word that names no command is a typo to point out, not an argument
  root.allowExcessArguments(true).action(async () => {
    const [word] = root.args;
    if (word !== undefined) {
      throw new UserError(
        `${unknownCommand(
          word,
          root.commands.map((c) => c.name()),
        )} (kdeck --help lists the commands)`,
      );
    }
    return interactiveTerminal() ? runUi(undefined, root) : root.outputHelp();
  });
  for (const c of root.commands) {
    c.exitOverride();
    for (const sub of c.commands) sub.exitOverride();
  }
  return root;
}

function readFileOrUndefined(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

export async function main(argv: string[]): Promise<number> {
  // React (under Ink) loads its production build only when told; its development build
  // checks and times every render, which makes the console several times slower
  process.env.NODE_ENV ??= 'production';
  try {
    await program().parseAsync(argv, { from: 'user' });
    return 0;
  } catch (e) {
    if (e instanceof SilentExit) return e.exitCode;
    if (e instanceof UserError) {
      process.stderr.write(`kdeck: ${e.message}\n`);
      return e.exitCode;
    }
    if (e instanceof KclError) {
      process.stderr.write(renderDiagnostic(e.diagnostic, readFileOrUndefined));
      return EXIT_USAGE;
    }
    if (e instanceof CommanderError) {
      return e.exitCode === 0 ? 0 : EXIT_USAGE;
    }
    process.stderr.write(
      `kdeck: internal error: ${errorMessage(e)}\nThis is a bug in kdeck, not in your input; please report it with the command you ran.\n`,
    );
    if (process.env.KDECK_DEBUG && e instanceof Error) process.stderr.write(`${e.stack}\n`);
    return EXIT_FAILED;
  }
}

// a reader that stops early (`kdeck compile | head`) is not an error
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw e;
});
const EXIT_INTERRUPTED = 130;

/** Resolves once everything written to `stream` so far has been handed to the system. */
function flushed(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => stream.write('', () => resolve()));
}

// not a top-level await: the shipped bundle is a CommonJS script (scripts/bundle.ts)
void main(process.argv.slice(2)).then(async (code) => {
  // everything worth keeping was written before main returned. After Ctrl-C, a request still
  // waiting on a cluster that does not answer must not hold the process; otherwise, once what was
  // printed is out, the process ends without waiting for V8's background work (a garbage
  // collection the compile began, code being optimized), which held an idle `kdeck compile` for
  // 15-20 ms after its output
  if (code !== EXIT_INTERRUPTED) await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  process.exit(code);
});
