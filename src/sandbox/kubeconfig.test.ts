import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { kubeconfigYaml, maskToken, mergeKubeconfig } from './kubeconfig.js';

const entries = [
  { name: 'a', server: 'https://127.0.0.1:1111', token: 'token-a' },
  { name: 'b', server: 'https://127.0.0.1:2222', token: 'token-b' },
];

describe('the sandbox kubeconfig', () => {
  it('has one cluster, user and context per sandbox cluster, the first one current', () => {
    const doc = YAML.parse(kubeconfigYaml(entries)) as Record<
      string,
      {
        name: string;
        cluster?: Record<string, unknown>;
        user?: Record<string, unknown>;
        context?: Record<string, unknown>;
      }[]
    > & { 'current-context': string };
    expect(doc.clusters!.map((c) => [c.name, c.cluster])).toEqual([
      ['sandbox-a', { server: 'https://127.0.0.1:1111', 'insecure-skip-tls-verify': true }],
      ['sandbox-b', { server: 'https://127.0.0.1:2222', 'insecure-skip-tls-verify': true }],
    ]);
    expect(doc.users!.map((u) => [u.name, u.user])).toEqual([
      ['sandbox-a', { token: 'token-a' }],
      ['sandbox-b', { token: 'token-b' }],
    ]);
    expect(doc.contexts!.map((c) => c.context)).toEqual([
      { cluster: 'sandbox-a', user: 'sandbox-a', namespace: 'default' },
      { cluster: 'sandbox-b', user: 'sandbox-b', namespace: 'default' },
    ]);
    expect(doc['current-context']).toBe('sandbox-a');
  });

  it('merges into an existing kubeconfig: other entries and the current context stay', () => {
    const existing = YAML.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [
        { name: 'prod', cluster: { server: 'https://prod' } },
        { name: 'sandbox-a', cluster: { server: 'https://old' } },
      ],
      users: [{ name: 'prod', user: { token: 'p' } }],
      contexts: [{ name: 'prod', context: { cluster: 'prod', user: 'prod' } }],
      'current-context': 'prod',
    });
    const doc = YAML.parse(mergeKubeconfig(existing, entries)) as {
      clusters: { name: string; cluster: { server: string } }[];
      'current-context': string;
    };
    expect(doc.clusters.map((c) => `${c.name} ${c.cluster.server}`)).toEqual([
      'prod https://prod',
      'sandbox-a https://127.0.0.1:1111',
      'sandbox-b https://127.0.0.1:2222',
    ]);
    expect(doc['current-context']).toBe('prod');
  });

  it('shows no more of a token than its first characters', () => {
    expect(maskToken('0123456789abcdef')).toBe('0123…(masked)');
  });
});
