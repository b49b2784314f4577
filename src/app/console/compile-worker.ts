/**
 * The console's compile worker: compiles stacks off the render thread, one request at a time,
 * keeping the compiler's parse cache warm between requests. A file that sends the compiler into
 * a long loop delays only this thread; the console stays responsive and stops it at its limit.
 */
import { parentPort } from 'node:worker_threads';
import type { CompileReply, CompileRequest } from './compile-protocol.js';
import { compileOutcome } from './compile-stack.js';

parentPort?.on('message', (request: CompileRequest) => {
  const reply: CompileReply = { id: request.id, ...compileOutcome(request.dir) };
  parentPort?.postMessage(reply);
});
