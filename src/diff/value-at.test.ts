import { describe, expect, it } from 'vitest';
import { pathSteps, valueAt } from './value-at.js';

const deployment = {
  spec: { template: { spec: { containers: [{ name: 'web', image: 'nginx:1', ports: [{ containerPort: 80 }] }] } } },
  data: { 'a.b': 'x' },
};

describe('valueAt', () => {
  it('reads the paths the field diff writes', () => {
    expect(valueAt(deployment, 'spec.template.spec.containers[name=web].image')).toBe('nginx:1');
    expect(valueAt(deployment, 'spec.template.spec.containers[name=web].ports[0].containerPort')).toBe(80);
    expect(valueAt(deployment, 'data["a.b"]')).toBe('x');
    expect(valueAt(deployment, 'spec.replicas')).toBeUndefined();
    expect(pathSteps('a..b')).toBeUndefined();
  });
});
