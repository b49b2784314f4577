import { describe, expect, it } from 'vitest';
import { Store } from '../api/store.js';
import type { KubeObject } from '../api/object.js';
import { labelIndexes } from './pair-index.js';

const pod = (name: string, labels: Record<string, string>, namespace = 'shop'): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace, labels },
});

const service = (name: string, selector: Record<string, string> | undefined): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name, namespace: 'shop' },
  spec: selector ? { selector } : {},
});

describe('the label indexes of the endpoints controller', () => {
  it('finds the pods a selector picks, in name order, and follows relabelled and deleted pods', () => {
    const store = new Store();
    store.create('/pods', pod('web-b', { app: 'web', tier: 'front' }));
    const ix = labelIndexes(store);
    store.create('/pods', pod('web-a', { app: 'web', tier: 'front' }));
    store.create('/pods', pod('api-a', { app: 'api', tier: 'front' }));
    store.create('/pods', pod('web-c', { app: 'web', tier: 'front' }, 'other'));
    expect(ix.pods.including('shop', { app: 'web', tier: 'front' })).toEqual(['web-a', 'web-b']);
    expect(ix.pods.including('shop', { tier: 'front' })).toEqual(['api-a', 'web-a', 'web-b']);
    expect(ix.pods.including('shop', { app: 'web', tier: 'back' })).toEqual([]);
    expect(ix.pods.including('shop', {})).toEqual([]);

    store.update('/pods', pod('web-a', { app: 'api', tier: 'front' }));
    store.remove('/pods', 'shop', 'web-b');
    expect(ix.pods.including('shop', { app: 'web' })).toEqual([]);
    expect(ix.pods.including('shop', { app: 'api' })).toEqual(['api-a', 'web-a']);
  });

  it('finds the Services whose whole selector a pod matches; none for a Service without one', () => {
    const store = new Store();
    const ix = labelIndexes(store);
    store.create('/services', service('web', { app: 'web' }));
    store.create('/services', service('web-front', { app: 'web', tier: 'front' }));
    store.create('/services', service('headless', undefined));
    store.create('/services', service('empty', {}));
    expect(ix.services.within('shop', { app: 'web', tier: 'front', pod: 'x' })).toEqual(['web', 'web-front']);
    expect(ix.services.within('shop', { app: 'web' })).toEqual(['web']);
    expect(ix.services.within('shop', { tier: 'front' })).toEqual([]);
    expect(ix.services.within('shop', undefined)).toEqual([]);

    store.update('/services', service('web', { app: 'web', tier: 'back' }));
    expect(ix.services.within('shop', { app: 'web', tier: 'front' })).toEqual(['web-front']);
  });
});
