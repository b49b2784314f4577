/**
 * The sandbox as a library: start clusters (with a kubeconfig for them), reach into one to set
 * faults, move its clock or wait for its controllers, and stop them.
 */
export { startSandbox, type Sandbox, type SandboxOptions } from './launcher.js';
export { SandboxCluster, type ClusterOptions } from './cluster.js';
export { ManualClock, RealClock, type Clock } from './clock.js';
export type { ApiErrorRule, FaultSettings, WatchDropMode } from './faults.js';
export type { Timings } from './controllers/runtime.js';
export { contextName } from './kubeconfig.js';
