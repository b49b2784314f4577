/**
 * One sandbox cluster: its store and API, its controllers, its faults, and its HTTP server on
 * 127.0.0.1. Made with `SandboxCluster.start()`, ended with `stop()`; `settle()` waits for the
 * controllers to finish what they can do now.
 */
import { randomBytes } from 'node:crypto';
import { ManualClock, RealClock, type Clock } from './clock.js';
import { AddressAllocator, type ApiContext } from './api/context.js';
import { followCrds } from './api/custom-resources.js';
import { serviceAddresses } from './api/kind-hooks.js';
import type { KubeObject } from './api/object.js';
import { hasStatus, ResourceRegistry, resourceKey } from './api/resources.js';
import { Store, type StoreSnapshot } from './api/store.js';
import { commitCreate, commitUpdate } from './api/write.js';
import { Faults, type FaultSettings } from './faults.js';
import { adminHandler } from './http/admin.js';
import { selfSignedCertificate } from './http/self-signed.js';
import { ApiHttpServer, type VersionInfo } from './http/server.js';
import { DEFAULT_WATCH_LIMITS, type WatchLimits } from './http/watch-stream.js';
import { Random } from './random.js';
import { EventRecorder } from './controllers/events.js';
import { ControllerManager } from './controllers/manager.js';
import { nodeObject } from './controllers/nodes.js';
import { defaultStorageClass } from './controllers/volumes.js';
import { PodIndex } from './controllers/pod-index.js';
import { closeLabelIndexes, labelIndexes, type LabelIndexes } from './controllers/pair-index.js';
import { DEFAULT_TIMINGS, type ControllerContext, type Timings } from './controllers/runtime.js';
import { allControllers } from './controllers/all.js';

export interface ClusterOptions {
  /** `a`, `b`, …: the cluster's name, in its context name and its nodes' hostnames. */
  name: string;
  /** How many fake nodes (default 3). */
  nodes?: number;
  /** The port to listen on (default: a free one). */
  port?: number;
  /** The bearer token clients must send (default: a random one). */
  token?: string;
  timings?: Partial<Timings>;
  /** A clock of the caller's (a ManualClock in tests); default the wall clock scaled by timeScale. */
  clock?: Clock;
  timeScale?: number;
  /** Seed of the cluster's randomness (generated names, rate-based faults). */
  seed?: number;
  faults?: Partial<FaultSettings>;
  watch?: Partial<WatchLimits>;
  /** How many events watches can resume from (default 5,000). */
  historySize?: number;
  /** The Kubernetes version /version reports (default v1.34.1). */
  kubernetesVersion?: string;
  /** State to start from (a snapshot taken by `snapshot()`); nothing is seeded over it. */
  snapshot?: StoreSnapshot;
  /** Objects to create at start, in order (skipped if they exist). */
  objects?: readonly KubeObject[];
}

const SEED_MANAGER = 'kdeck-sandbox';

function versionInfo(v: string): VersionInfo {
  const m = /^v?([0-9]+)\.([0-9]+)/.exec(v);
  return { major: m?.[1] ?? '1', minor: m?.[2] ?? '34', gitVersion: v.startsWith('v') ? v : `v${v}` };
}

export class SandboxCluster {
  readonly name: string;
  readonly token: string;
  readonly clock: Clock;
  readonly store: Store;
  readonly faults: Faults;
  readonly api: ApiContext;
  readonly controllers: ControllerManager;
  private readonly server: ApiHttpServer;
  private readonly podIndex: PodIndex;
  private readonly labelIndexes: LabelIndexes;
  private readonly stopCrds: () => void;
  private listening = 0;

  private constructor(opts: ClusterOptions) {
    this.name = opts.name;
    this.token = opts.token ?? randomBytes(24).toString('hex');
    this.clock = opts.clock ?? new RealClock(opts.timeScale ?? 1);
    const random = new Random(opts.seed ?? randomBytes(4).readUInt32LE(0));
    this.store = new Store(opts.historySize ?? 5_000, opts.snapshot?.resourceVersion);
    this.faults = new Faults(random, opts.faults);
    this.api = {
      store: this.store,
      resources: new ResourceRegistry(),
      clock: this.clock,
      random,
      addresses: new AddressAllocator(),
    };
    if (opts.snapshot) this.restore(opts.snapshot);
    this.stopCrds = followCrds(this.api);
    this.podIndex = new PodIndex(this.store);
    this.labelIndexes = labelIndexes(this.store);
    this.controllers = new ControllerManager(this.store, this.clock);
    const cctx: ControllerContext = {
      api: this.api,
      faults: this.faults,
      timings: { ...DEFAULT_TIMINGS, ...opts.timings },
      manager: this.controllers,
      events: new EventRecorder(this.api, (write) => this.controllers.defer(write)),
      pods: this.podIndex,
      labels: this.labelIndexes,
      cluster: this.name,
    };
    for (const c of allControllers(cctx)) this.controllers.add(c);
    this.server = new ApiHttpServer(
      {
        ctx: this.api,
        token: this.token,
        faults: this.faults,
        version: versionInfo(opts.kubernetesVersion ?? 'v1.34.1'),
        watch: { ...DEFAULT_WATCH_LIMITS, ...opts.watch },
        admin: adminHandler(this),
      },
      selfSignedCertificate(`kdeck-sandbox-${this.name}`),
    );
  }

  /** Starts a cluster: seeds it (unless restored), starts its controllers and its server. */
  static async start(opts: ClusterOptions): Promise<SandboxCluster> {
    const c = new SandboxCluster(opts);
    if (!opts.snapshot) c.seedSystem(opts.nodes ?? 3);
    for (const o of opts.objects ?? []) c.create(o);
    c.controllers.start();
    try {
      c.listening = await c.server.listen(opts.port ?? 0);
    } catch (e) {
      c.controllers.stop();
      throw e;
    }
    return c;
  }

  get port(): number {
    return this.listening;
  }

  /** The address kubectl and the kubeconfig use. */
  get url(): string {
    return `https://127.0.0.1:${this.listening}`;
  }

  /**
   * The same server without TLS, for in-process clients: client-node 1.4 opens a connection per
   * request, and a TLS handshake each time costs several times the request.
   */
  get httpUrl(): string {
    return `http://127.0.0.1:${this.listening}`;
  }

  /** Stops the controllers and the server (every connection, watches included). */
  async stop(): Promise<void> {
    this.controllers.stop();
    this.stopCrds();
    this.podIndex.close();
    closeLabelIndexes(this.labelIndexes);
    await this.server.close();
  }

  /**
   * Takes the cluster off the network (connections refused, watches cut) while it keeps running
   * inside: a cluster that goes away, for as long as the caller likes.
   */
  async disconnect(): Promise<void> {
    await this.server.close();
  }

  /** Brings a disconnected cluster back on the same port, with everything it holds. */
  async reconnect(): Promise<void> {
    await this.server.listen(this.listening);
  }

  /** Resolves when the controllers have nothing left to do now. */
  settle(): Promise<void> {
    return this.controllers.settle();
  }

  /** With a ManualClock: moves time on and lets the controllers catch up. */
  async advance(ms: number): Promise<void> {
    if (!(this.clock instanceof ManualClock))
      throw new Error(`cluster ${this.name} runs on the wall clock; give it a ManualClock to advance time`);
    await this.settle();
    this.clock.advance(ms);
    await this.settle();
  }

  /** Forgets the watch history: watches and list continuations from before now get 410. */
  compact(): void {
    this.store.compact();
  }

  snapshot(): StoreSnapshot {
    return this.store.snapshot();
  }

  describe(): Record<string, unknown> {
    return {
      name: this.name,
      url: this.url,
      resourceVersion: String(this.store.resourceVersion),
      nodes: this.store.list('/nodes').map((n) => n.metadata.name),
      faults: this.faults.current,
      heldRequests: this.server.heldRequests,
      lastControllerError: this.controllers.lastError ?? null,
    };
  }

  private restore(s: StoreSnapshot): void {
    this.store.restore(s);
    for (const svc of this.store.list('/services')) {
      const { ip, ports } = serviceAddresses(svc);
      this.api.addresses.reserve(ip, ports);
    }
  }

  /**
   * Creates an object unless it exists; an invalid one throws the API's own error. A status it
   * carries is written after it, as a kubelet registering its node does.
   */
  private create(o: KubeObject): void {
    const r = this.api.resources.forKind(o.apiVersion, o.kind);
    if (!r) throw new Error(`cluster ${this.name}: the sandbox does not serve ${o.kind} in ${o.apiVersion}`);
    if (this.store.get(resourceKey(r), r.namespaced ? (o.metadata.namespace ?? 'default') : '', o.metadata.name ?? ''))
      return;
    const copy = structuredClone(o);
    if (r.namespaced) copy.metadata.namespace ||= 'default';
    const made = commitCreate(this.api, r, copy, { manager: SEED_MANAGER });
    if (o.status !== undefined && hasStatus(r)) {
      commitUpdate(
        this.api,
        r,
        made,
        { ...made, status: structuredClone(o.status) },
        { manager: SEED_MANAGER, scope: 'status', subresource: 'status' },
      );
    }
  }

  private seedSystem(nodes: number): void {
    for (const ns of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) {
      this.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    }
    const now = this.clock.now();
    for (let i = 0; i < nodes; i++) this.create(nodeObject(this.name, i, now));
    // what every cluster has: a default StorageClass (its provisioner binds claims) and the
    // system priority classes
    this.create(defaultStorageClass());
    for (const [name, value] of [
      ['system-cluster-critical', 2000000000],
      ['system-node-critical', 2000001000],
    ] as const)
      this.create({
        apiVersion: 'scheduling.k8s.io/v1',
        kind: 'PriorityClass',
        metadata: { name },
        value,
        globalDefault: false,
        description:
          'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.',
        preemptionPolicy: 'PreemptLowerPriority',
      });
    this.create({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: {
        name: 'kubernetes',
        namespace: 'default',
        labels: { component: 'apiserver', provider: 'kubernetes' },
      },
      spec: {
        clusterIP: '10.96.0.1',
        ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: 6443 }],
        sessionAffinity: 'None',
        type: 'ClusterIP',
      },
    });
    // the API server's own endpoints, as a real one publishes them
    const apiServerIp = '10.0.0.2';
    this.create({
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: {
        name: 'kubernetes',
        namespace: 'default',
        labels: { 'endpointslice.kubernetes.io/skip-mirror': 'true' },
      },
      subsets: [{ addresses: [{ ip: apiServerIp }], ports: [{ name: 'https', port: 6443, protocol: 'TCP' }] }],
    });
    this.create({
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: { name: 'kubernetes', namespace: 'default', labels: { 'kubernetes.io/service-name': 'kubernetes' } },
      addressType: 'IPv4',
      endpoints: [{ addresses: [apiServerIp], conditions: { ready: true } }],
      ports: [{ name: 'https', port: 6443, protocol: 'TCP' }],
    });
  }
}
