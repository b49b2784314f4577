import fs from 'node:fs';
import type https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadKubeconfig } from './kubeconfig.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kdeck-kubeconfig-access-'));

function write(name: string, text: string): string {
  const file = path.join(dir, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}

async function optionsFor(file: string, context: string): Promise<https.RequestOptions> {
  const options: https.RequestOptions = { headers: { Accept: 'application/json' } };
  await loadKubeconfig(file).configFor(context).authorize(options);
  return options;
}

describe('what a request to a context carries', () => {
  it('reads certificates and token files relative to the kubeconfig that names them', async () => {
    write('certs/ca.crt', 'the CA');
    write('certs/client.crt', 'the client certificate');
    write('certs/token', 'from-a-file\n');
    const file = write(
      'nested/config',
      `
apiVersion: v1
kind: Config
current-context: prod
clusters:
- name: prod
  cluster: {server: "https://prod.example:6443/", certificate-authority: ../certs/ca.crt, tls-server-name: api.prod}
users:
- name: admin
  user:
    client-certificate: ../certs/client.crt
    client-key-data: ${Buffer.from('the key').toString('base64')}
    token-file: ../certs/token
    as: auditor
contexts:
- name: prod
  context: {cluster: prod, user: admin, namespace: payments}
`,
    );
    const access = loadKubeconfig(file).configFor('prod');
    expect(access.server).toBe('https://prod.example:6443');
    expect(access.namespace).toBe('payments');
    const options = await optionsFor(file, 'prod');
    expect(String(options.ca)).toBe('the CA');
    expect(String(options.cert)).toBe('the client certificate');
    expect(String(options.key)).toBe('the key');
    expect(options.servername).toBe('api.prod');
    expect(options.rejectUnauthorized).toBeUndefined();
    expect(options.headers).toEqual({
      Accept: 'application/json',
      Authorization: 'Bearer from-a-file',
      'Impersonate-User': 'auditor',
    });
  });

  it('sends basic auth, and skips verification only when the cluster says so', async () => {
    const file = write(
      'basic.yaml',
      `
clusters:
- {name: dev, cluster: {server: "https://dev.example", insecure-skip-tls-verify: true}}
users:
- {name: me, user: {username: alice, password: s3cret}}
contexts:
- {name: dev, context: {cluster: dev, user: me}}
`,
    );
    const options = await optionsFor(file, 'dev');
    expect(options.auth).toBe('alice:s3cret');
    expect(options.rejectUnauthorized).toBe(false);
  });

  it('runs an exec plugin for its credential, as kubectl does', async () => {
    const plugin = write(
      'plugin.mjs',
      `console.log(JSON.stringify({apiVersion: 'client.authentication.k8s.io/v1beta1', kind: 'ExecCredential', status: {token: 'from-the-plugin'}}));`,
    );
    const file = write(
      'exec.yaml',
      `
clusters:
- {name: cloud, cluster: {server: "https://cloud.example"}}
users:
- name: sso
  user:
    exec: {apiVersion: client.authentication.k8s.io/v1beta1, command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(plugin)}]}
contexts:
- {name: cloud, context: {cluster: cloud, user: sso}}
`,
    );
    const options = await optionsFor(file, 'cloud');
    expect((options.headers as Record<string, string>).Authorization).toBe('Bearer from-the-plugin');
  });

  it('names the entry a broken kubeconfig lacks', () => {
    const file = write('noserver.yaml', 'clusters:\n- {name: x, cluster: {}}\n');
    expect(() => loadKubeconfig(file)).toThrow(/noserver.yaml cannot be read: clusters\[0\].cluster.server is missing/);
  });
});
