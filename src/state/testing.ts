/**
 * Large states for the backend tests and `bench-state`: a stack of `count` resources (a third
 * each ConfigMaps with a config file in them, Services, Deployments), each with the live
 * identity apply records. The content is pseudo-random from a seed, so it compresses about as
 * badly as real uids and config files do, and the same seed gives the same state.
 */
import { Random } from '../sandbox/random.js';
import { emptyState, type State, type StateKey, type StateResource } from './model.js';

export function generatedState(key: StateKey, count: number, seed = 1): State {
  const random = new Random(seed);
  const next = () => random.next();
  const hex = (n: number) => Array.from({ length: n }, () => Math.floor(next() * 16).toString(16)).join('');
  const uid = () => `${hex(8)}-${hex(4)}-${hex(4)}-${hex(4)}-${hex(12)}`;
  const ns = 'bench';
  const resources: StateResource[] = [];
  for (let i = 0; i < count; i++) {
    const app = `app-${Math.floor(i / 3)}`;
    const live = { uid: uid(), resourceVersion: String(1000 + i) };
    const labels = { app, 'app.kubernetes.io/part-of': key.stack };
    switch (i % 3) {
      case 0: {
        const lines = Array.from({ length: 12 }, (_, l) => `setting_${l} = "${hex(40)}"`).join('\n');
        resources.push({
          id: `v1:ConfigMap:${ns}:${app}`,
          type: 'Kubernetes',
          attributes: {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name: app, namespace: ns, labels },
            data: { 'app.conf': lines },
          },
          live,
        });
        break;
      }
      case 1:
        resources.push({
          id: `v1:Service:${ns}:${app}`,
          type: 'Kubernetes',
          attributes: {
            apiVersion: 'v1',
            kind: 'Service',
            metadata: { name: app, namespace: ns, labels },
            spec: { selector: { app }, ports: [{ name: 'http', port: 80, targetPort: 8080 }] },
          },
          live,
        });
        break;
      default:
        resources.push({
          id: `apps/v1:Deployment:${ns}:${app}`,
          type: 'Kubernetes',
          dependsOn: [`v1:ConfigMap:${ns}:${app}`, `v1:Service:${ns}:${app}`],
          attributes: {
            apiVersion: 'apps/v1',
            kind: 'Deployment',
            metadata: { name: app, namespace: ns, labels, annotations: { 'kdeck.io/revision': hex(16) } },
            spec: {
              replicas: 1 + (i % 5),
              selector: { matchLabels: { app } },
              template: {
                metadata: { labels },
                spec: {
                  containers: [
                    {
                      name: 'main',
                      image: `registry.example/${app}@sha256:${hex(64)}`,
                      envFrom: [{ configMapRef: { name: app } }],
                      ports: [{ containerPort: 8080 }],
                    },
                  ],
                },
              },
            },
          },
          live,
        });
    }
  }
  resources.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { ...emptyState(key, 'bench@local', '2026-11-22T00:00:00.000Z'), resources };
}
