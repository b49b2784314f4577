/**
 * A console whose one stack holds `n` resources (a namespace, then ConfigMaps, Services and
 * Deployments that depend on it, each Deployment also on its ConfigMap and, by a reference, its
 * Service), planned against a live copy with every tenth Deployment changed: what the bench
 * scrolls through and switches views on.
 */
import { fixtureObjects } from './objects-fixture.js';
import { ProductionPolicy } from '../../app/policy/production.js';
import type { Attributes, Spec } from '../../model/resource.js';
import { Store, type ConsoleState } from '../../app/console/state.js';
import { FixturePodTools } from './pod-fixture.js';
import type { ConsoleControl } from '../../app/console/control.js';
import { deployment, planned, resource, stack } from './fixture.js';

export function largeStackState(n: number): ConsoleState {
  const ns = resource({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'load' } });
  const resources = [ns];
  for (let i = 0; resources.length < n; i++) {
    const name = `app-${i}`;
    const cm = resource(
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'load' }, data: { index: String(i) } },
      [ns.id],
    );
    const svc = resource(
      {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name, namespace: 'load' },
        spec: { selector: { app: name }, ports: [{ port: 80 }] },
      },
      [ns.id],
    );
    const dep = deployment('load', name, `registry.example/app:${i}`, 2);
    const template = (dep.spec as Attributes).template as Attributes;
    ((template.spec as Attributes).containers as Attributes[])[0].env = [
      { name: 'BACKEND', value: `\${ref:${svc.id}#/metadata/name}` },
    ];
    resources.push(cm, svc, resource(dep, [ns.id, cm.id]));
  }
  const spec: Spec = { resources: resources.slice(0, n).sort((a, b) => (a.id < b.id ? -1 : 1)) };
  const entry = planned(stack('load', 'many'), spec, 'sandbox-a', (r) => {
    if (r.id.includes(':Deployment:') && r.id.endsWith('0')) {
      const live = structuredClone(r.attributes);
      (live.spec as Attributes).replicas = 3;
      return { prior: r.attributes, live };
    }
    return { prior: r.attributes, live: r.attributes };
  });
  return {
    root: '/bench/konfig',
    readOnly: false,
    contexts: [{ name: 'sandbox-a', prod: false }],
    production: new ProductionPolicy([{ name: 'sandbox-a' }]),
    context: 'sandbox-a',
    stacks: [entry],
    operations: new Map(),
    events: [],
    watching: true,
  };
}

/** A control over a fixed state that does nothing when asked: for rendering only. */
export function staticControl(state: ConsoleState): ConsoleControl {
  return {
    store: new Store(state),
    podTools: new FixturePodTools(),
    objects: fixtureObjects(),
    startOperation: async () => undefined,
    interrupt: () => false,
    refresh: () => undefined,
    setContext: () => undefined,
    planRecovery: async () => undefined,
    openSavedRun: () => undefined,
    rehearseRecovery: async () => undefined,
    runRecovery: async () => undefined,
    steerRecovery: () => false,
    focus: () => undefined,
    log: () => undefined,
  };
}
