import { describe, expect, it } from 'vitest';
import { servedFromThisMachine, yieldsToClusters } from './local-cluster.js';

describe('clusters served from this machine', () => {
  it('are the ones whose API server answers on loopback, by name or address', () => {
    for (const server of ['https://127.0.0.1:6443', 'http://localhost:8080', 'https://[::1]:6443', 'https://127.4.5.6'])
      expect(servedFromThisMachine(server), server).toBe(true);
    for (const server of [
      'https://10.0.0.1:6443',
      'https://api.example.com',
      'https://127.0.0.1.example.com',
      'https://localhost.example.com:443',
      'not a url',
    ])
      expect(servedFromThisMachine(server), server).toBe(false);
  });

  it('have a change yield the CPU only when every cluster it touches is one of them', () => {
    expect(yieldsToClusters(['https://127.0.0.1:40001', 'https://127.0.0.1:40002'])).toBe(true);
    expect(yieldsToClusters(['https://127.0.0.1:40001', 'https://prod.example.com'])).toBe(false);
    // a change that touches no cluster has nothing to yield to
    expect(yieldsToClusters([])).toBe(false);
  });
});
