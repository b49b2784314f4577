/**
 * Every controller a sandbox cluster runs, in the order they are given events.
 */
import { deploymentController } from './deployment.js';
import { garbageCollector } from './garbage-collector.js';
import { kubeletController } from './kubelet.js';
import type { Controller } from './manager.js';
import { namespaceController } from './namespace.js';
import { nodeLifecycleController } from './nodes.js';
import { replicaSetController } from './replicaset.js';
import type { ControllerContext } from './runtime.js';
import { schedulerController } from './scheduler.js';

export function allControllers(ctx: ControllerContext): Controller[] {
  return [
    nodeLifecycleController(ctx),
    schedulerController(ctx),
    kubeletController(ctx),
    replicaSetController(ctx),
    deploymentController(ctx),
    garbageCollector(ctx),
    namespaceController(ctx),
  ];
}
