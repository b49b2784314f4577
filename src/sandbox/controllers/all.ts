/**
 * Every controller a sandbox cluster runs, in the order they are given events.
 */
import { cronJobController } from './cronjob.js';
import { daemonSetController } from './daemonset.js';
import { deploymentController } from './deployment.js';
import { disruptionController } from './disruption.js';
import { endpointsController } from './endpoints.js';
import { garbageCollector } from './garbage-collector.js';
import { jobController } from './job.js';
import { kubeletController } from './kubelet.js';
import { loadBalancerController } from './load-balancer.js';
import type { Controller } from './manager.js';
import { namespaceController } from './namespace.js';
import { nodeLifecycleController } from './nodes.js';
import { quotaController } from './quota.js';
import { volumeController } from './volumes.js';
import { replicaSetController } from './replicaset.js';
import type { ControllerContext } from './runtime.js';
import { schedulerController } from './scheduler.js';
import { statefulSetController } from './statefulset.js';

export function allControllers(ctx: ControllerContext): Controller[] {
  return [
    nodeLifecycleController(ctx),
    schedulerController(ctx),
    kubeletController(ctx),
    replicaSetController(ctx),
    replicaSetController(ctx, 'ReplicationController'),
    deploymentController(ctx),
    statefulSetController(ctx),
    daemonSetController(ctx),
    jobController(ctx),
    cronJobController(ctx),
    endpointsController(ctx),
    loadBalancerController(ctx),
    disruptionController(ctx),
    volumeController(ctx),
    quotaController(ctx),
    garbageCollector(ctx),
    namespaceController(ctx),
  ];
}
