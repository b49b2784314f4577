import { describe, expect, it } from 'vitest';
import { ProductionPolicy } from '../policy/production.js';
import { kubectlCommand } from '../pods/target.js';
import { liveYaml } from './live-yaml.js';
import { objectConfirmation, restartPatch } from './object-actions.js';

const production = new ProductionPolicy([{ name: 'dev' }, { name: 'eu-prod-1' }]);
const web = { cluster: 'eu-prod-1', apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'web', name: 'web' };

describe('per-object actions', () => {
  it('restart sends the annotation kubectl rollout restart writes', () => {
    expect(restartPatch(new Date('2026-03-02T09:10:00.123Z'))).toEqual({
      spec: {
        template: { metadata: { annotations: { 'kubectl.kubernetes.io/restartedAt': '2026-03-02T09:10:00Z' } } },
      },
    });
  });

  it('asks for the context name on production, a y elsewhere, and names the kubectl command', () => {
    const prod = objectConfirmation({ action: 'restart', of: web }, { production }, ['/home/me/.kube/config']);
    expect(prod).toMatchObject({ action: 'restart', subject: 'deployment/web', typed: 'eu-prod-1' });
    expect('summary' in prod && prod.summary.at(-1)).toBe(
      'the same as: kubectl --kubeconfig /home/me/.kube/config --context eu-prod-1 -n web rollout restart deployment/web',
    );
    const dev = objectConfirmation({ action: 'scale', of: { ...web, cluster: 'dev' }, replicas: 2 }, { production }, [
      '/k',
    ]);
    expect(dev).not.toHaveProperty('typed');
  });

  it('refuses what does not apply to the object', () => {
    expect(objectConfirmation({ action: 'delete', of: web }, { production }, [])).toEqual({
      refused: 'only a pod is deleted from here (Deployment web is not one); kdeck destroy removes a stack',
    });
    expect(objectConfirmation({ action: 'scale', of: web, replicas: Number.NaN }, { production }, [])).toEqual({
      refused: 'scale needs a whole number of replicas, 0 or more (:scale 3)',
    });
  });

  it('quotes what a shell would take apart, and puts several kubeconfigs in KUBECONFIG', () => {
    expect(kubectlCommand(['/my files/k.yaml'], web, ['describe', 'deployment/web'])).toBe(
      "kubectl --kubeconfig '/my files/k.yaml' --context eu-prod-1 -n web describe deployment/web",
    );
    expect(kubectlCommand(['/a', '/b'], { cluster: 'dev' }, ['get', 'ns'])).toBe(
      'KUBECONFIG=/a:/b kubectl --context dev get ns',
    );
  });
});

describe('the live YAML', () => {
  const secret = {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 's', managedFields: [{ manager: 'kdeck' }] },
    data: { password: 'aHVudGVyMg==' },
  };
  it('leaves managedFields out unless asked, and masks Secret values unless shown', () => {
    const text = liveYaml(secret, { managedFields: false, showSecrets: false });
    expect(text).not.toContain('managedFields');
    expect(text).not.toContain('aHVudGVyMg==');
    const all = liveYaml(secret, { managedFields: true, showSecrets: true });
    expect(all).toContain('managedFields:');
    expect(all).toContain('password: aHVudGVyMg==');
  });
});
