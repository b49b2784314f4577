/**
 * Where the contract suite runs: a fresh sandbox by default, or a real cluster when
 * KDECK_CONTRACT_KUBECONFIG names a kubeconfig (and KDECK_CONTRACT_CONTEXT, optionally, a
 * context in it) — an explicit opt-in, so a KUBECONFIG left in the environment is never used
 * by accident. Each run works in a namespace of its own, deleted at the end.
 */
import https from 'node:https';
import { AppsV1Api, CoreV1Api, KubeConfig, KubernetesObjectApi, PolicyV1Api } from '@kubernetes/client-node';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import type { SandboxCluster } from '../../src/sandbox/cluster.js';
import { kubeconfigYaml } from '../../src/sandbox/kubeconfig.js';

export interface Target {
  kc: KubeConfig;
  namespace: string;
  core: CoreV1Api;
  apps: AppsV1Api;
  policy: PolicyV1Api;
  objects: KubernetesObjectApi;
  /** Set when the target is a sandbox: the tests that need its faults or its clock use it. */
  cluster?: SandboxCluster;
  close(): Promise<void>;
}

/** Pod lifecycle steps take no time, so rollouts converge as fast as the controllers run. */
export const FAST = { podStartMs: 0, readinessDelayMs: 0, terminationMs: 0, jobRunMs: 0 };

export async function contractTarget(): Promise<Target> {
  const kc = new KubeConfig();
  let sandbox: Sandbox | undefined;
  const external = process.env.KDECK_CONTRACT_KUBECONFIG;
  if (external) {
    kc.loadFromFile(external);
    if (process.env.KDECK_CONTRACT_CONTEXT) kc.setCurrentContext(process.env.KDECK_CONTRACT_CONTEXT);
  } else {
    sandbox = await startSandbox({ clusters: 1, timings: FAST, watch: { bookmarkIntervalMs: 200 } });
    kc.loadFromFile(sandbox.kubeconfigPath);
  }
  const namespace = `contract-${Date.now().toString(36)}`;
  const core = kc.makeApiClient(CoreV1Api);
  await core.createNamespace({ body: { metadata: { name: namespace } } });
  return {
    kc,
    namespace,
    core,
    apps: kc.makeApiClient(AppsV1Api),
    policy: kc.makeApiClient(PolicyV1Api),
    objects: KubernetesObjectApi.makeApiClient(kc),
    ...(sandbox ? { cluster: sandbox.clusters[0]! } : {}),
    async close() {
      try {
        await core.deleteNamespace({ name: namespace });
      } finally {
        await sandbox?.stop();
      }
    },
  };
}

/** Waits (at most `timeoutMs`) until `probe` returns something, and returns it. */
export async function eventually<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v !== undefined && v !== false) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline)
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what}${last ? ` (last error: ${String(last)})` : ''}`,
      );
    await new Promise((r) => setTimeout(r, 20));
  }
}

export interface RawReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: () => Record<string, unknown>;
}

/** A request as the caller writes it (bad bodies included), with the kubeconfig's credentials. */
export async function raw(
  kc: KubeConfig,
  method: string,
  path: string,
  body?: string,
  headers: Record<string, string> = {},
  withAuth = true,
): Promise<RawReply> {
  const server = new URL(kc.getCurrentCluster()!.server);
  // a body goes with its length: Node frames no body of a DELETE by itself
  const length: Record<string, string> =
    body === undefined ? {} : { 'Content-Length': String(Buffer.byteLength(body)) };
  const opts: https.RequestOptions = {
    method,
    hostname: server.hostname,
    port: server.port,
    path,
    headers: { ...headers, ...length },
    timeout: 10_000,
  };
  if (withAuth) await kc.applyToHTTPSOptions(opts);
  else opts.rejectUnauthorized = false;
  return new Promise((resolve, reject) => {
    const req = https.request(opts, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          text,
          json: () => JSON.parse(text) as Record<string, unknown>,
        });
      });
    });
    req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer in 10 s`)));
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/** The Status body of a client-node ApiException. */
export function statusOf(e: unknown): {
  code: number;
  reason?: string;
  message?: string;
  details?: Record<string, unknown>;
} {
  const err = e as { code?: number; body?: unknown };
  const body =
    typeof err.body === 'string'
      ? (JSON.parse(err.body) as Record<string, unknown>)
      : ((err.body ?? {}) as Record<string, unknown>);
  return { code: err.code ?? 0, ...body } as ReturnType<typeof statusOf>;
}

/** The error a promise rejects with (the test fails if it resolves). */
export async function failure(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected the request to fail, and it succeeded');
}

/** A KubeConfig for one sandbox cluster started by a test. */
export function kubeConfigFor(cluster: SandboxCluster): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromString(kubeconfigYaml([{ name: cluster.name, server: cluster.url, token: cluster.token }]));
  return kc;
}
