/**
 * The sandbox process of sandbox-process.ts: starts the clusters with the options of its
 * argument (JSON), says where their kubeconfig is, and stops them when its stdin closes.
 */
import { startSandbox, type SandboxOptions } from '../src/sandbox/launcher.js';

const options = JSON.parse(process.argv[2] ?? '{}') as SandboxOptions;
const sandbox = await startSandbox(options);
process.stdout.write(`kubeconfig ${sandbox.kubeconfigPath}\n`);
process.stdin.resume();
process.stdin.on('end', () => {
  void sandbox.stop().then(() => process.exit(0));
});
