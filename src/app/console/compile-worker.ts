/**
 * The console's compile worker: compiles stacks off the render thread, one request at a time,
 * keeping the compiler's parse cache warm between requests and, after a stack's first compile,
 * V8's code for the evaluator (warm-up.ts). A file that sends the compiler into a long loop
 * delays only this thread; the console stays responsive and stops it at its limit.
 */
import { parentPort } from 'node:worker_threads';
import { compileStack } from '../../konfig/compile.js';
import type { CompileReply, CompileRequest } from './compile-protocol.js';
import { compileOutcome } from './compile-stack.js';
import { WarmUp } from './warm-up.js';

const warmUp = new WarmUp((dir) => {
  try {
    return compileStack(dir).repeatable;
  } catch {
    // the files changed under the warm-up and no longer compile: the next request says how
    return false;
  }
});

parentPort?.on('message', (request: CompileRequest) => {
  warmUp.interrupt();
  const { outcome, repeatable } = compileOutcome(request.dir);
  const reply: CompileReply = { id: request.id, ...outcome };
  parentPort?.postMessage(reply);
  warmUp.compiled(request.dir, repeatable, outcome.ms);
});
