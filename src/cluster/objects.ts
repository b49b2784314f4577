/**
 * Kubernetes objects on one cluster, by their manifest: discovery of the REST path of a kind
 * (refreshed when a kind is missing, since a CRD may have been applied a moment ago), get,
 * server-side apply with field manager `kdeck` (dry-run for preview), delete with propagation,
 * and waiting until an object is gone.
 */
import { ApiError, RestClient } from './rest.js';
import { refOf, type KubeObject, type ObjectRef } from '../model/kube-object.js';

export const FIELD_MANAGER = 'kdeck';

interface ApiResource {
  name: string;
  kind: string;
  namespaced: boolean;
}

export interface ApplyOptions {
  dryRun?: boolean;
  /** Take fields over from other managers instead of failing with a conflict. */
  force?: boolean;
}

/** The objects of a list and the resourceVersion it was read at. */
export interface Listed {
  items: KubeObject[];
  resourceVersion: string;
}

export class ObjectClient {
  private readonly discovery = new Map<string, Promise<ApiResource[]>>();

  constructor(
    readonly rest: RestClient,
    /** The context's namespace, for namespaced objects that name none. */
    readonly defaultNamespace = 'default',
  ) {}

  get cluster(): string {
    return this.rest.cluster;
  }

  /** An API version's resources; one read at a time however many calls ask for it at once. */
  private resources(apiVersion: string, refresh: boolean): Promise<ApiResource[]> {
    const cached = this.discovery.get(apiVersion);
    if (cached && !refresh) return cached;
    const read = this.readResources(apiVersion);
    this.discovery.set(apiVersion, read);
    // a failed read is not kept: the next call asks again
    read.catch(() => this.discovery.get(apiVersion) === read && this.discovery.delete(apiVersion));
    return read;
  }

  private async readResources(apiVersion: string): Promise<ApiResource[]> {
    const path = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
    try {
      const body = (await this.rest.request({ method: 'GET', path })).body as { resources?: ApiResource[] };
      return (body?.resources ?? []).filter((r) => !r.name.includes('/'));
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) return [];
      throw e;
    }
  }

  /**
   * The REST path of an object (or of its collection, without a name). A namespaced object that
   * names no namespace is in the context's; `allNamespaces` asks for the collection across all.
   */
  async pathOf(ref: Omit<ObjectRef, 'name'> & { name?: string }, allNamespaces = false): Promise<string> {
    let resource = (await this.resources(ref.apiVersion, false)).find((r) => r.kind === ref.kind);
    resource ??= (await this.resources(ref.apiVersion, true)).find((r) => r.kind === ref.kind);
    if (!resource) {
      throw new ApiError(
        this.cluster,
        404,
        'NotFound',
        `the cluster does not serve kind ${ref.kind} in ${ref.apiVersion} (if it is a custom resource, is its CRD applied?)`,
        `discovery of ${ref.apiVersion}`,
      );
    }
    const base = ref.apiVersion.includes('/') ? `/apis/${ref.apiVersion}` : `/api/${ref.apiVersion}`;
    const ns =
      resource.namespaced && !(allNamespaces && ref.namespace === undefined)
        ? `/namespaces/${encodeURIComponent(ref.namespace ?? this.defaultNamespace)}`
        : '';
    return `${base}${ns}/${resource.name}${ref.name !== undefined ? `/${encodeURIComponent(ref.name)}` : ''}`;
  }

  /** The live object, or undefined when it does not exist. */
  async get(ref: ObjectRef): Promise<KubeObject | undefined> {
    try {
      return (await this.rest.request({ method: 'GET', path: await this.pathOf(ref) })).body as KubeObject;
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) return undefined;
      throw e;
    }
  }

  /**
   * The objects of a kind: in `ref.namespace`, or in every namespace when it names none. The
   * server leaves apiVersion and kind out of list items; they are put back, as kubectl does.
   */
  async list(
    ref: Omit<ObjectRef, 'name'>,
    selectors: { labelSelector?: string; fieldSelector?: string } = {},
  ): Promise<Listed> {
    const body = (await this.rest.request({ method: 'GET', path: await this.pathOf(ref, true), query: selectors }))
      .body as { items?: KubeObject[]; metadata?: { resourceVersion?: string } };
    const items = (body?.items ?? []).map((o) => ({ apiVersion: ref.apiVersion, kind: ref.kind, ...o }));
    return { items, resourceVersion: body?.metadata?.resourceVersion ?? '' };
  }

  /** Server-side apply of a manifest; the server's resulting object. */
  async apply(o: KubeObject, options: ApplyOptions = {}): Promise<KubeObject> {
    const res = await this.rest.request({
      method: 'PATCH',
      path: await this.pathOf(refOf(o)),
      query: {
        fieldManager: FIELD_MANAGER,
        force: options.force ? true : undefined,
        dryRun: options.dryRun ? 'All' : undefined,
      },
      body: o,
      contentType: 'application/apply-patch+yaml',
    });
    return res.body as KubeObject;
  }

  /** Creates an object; the server's result (409 AlreadyExists when the name is taken). */
  async create(o: KubeObject): Promise<KubeObject> {
    const { name: _name, ...collection } = refOf(o);
    return (await this.rest.request({ method: 'POST', path: await this.pathOf(collection), body: o }))
      .body as KubeObject;
  }

  /** Replaces an object if it is still at its `metadata.resourceVersion` (409 Conflict otherwise). */
  async replace(o: KubeObject): Promise<KubeObject> {
    return (await this.rest.request({ method: 'PUT', path: await this.pathOf(refOf(o)), body: o })).body as KubeObject;
  }

  /**
   * Deletes an object; false when it was already gone. With a uid precondition, only that
   * incarnation of it: a successor under the same name (a StatefulSet's new pod) is left alone
   * and counts as gone. With a resourceVersion precondition, a changed object is a 409.
   */
  async delete(
    ref: ObjectRef,
    propagationPolicy: 'Foreground' | 'Background' | 'Orphan' = 'Background',
    preconditions: { uid?: string; resourceVersion?: string } = {},
  ): Promise<boolean> {
    try {
      await this.rest.request({
        method: 'DELETE',
        path: await this.pathOf(ref),
        body: {
          apiVersion: 'v1',
          kind: 'DeleteOptions',
          propagationPolicy,
          ...(Object.keys(preconditions).length ? { preconditions } : {}),
        },
      });
      return true;
    } catch (e) {
      if (e instanceof ApiError && (e.status === 404 || (preconditions.uid !== undefined && e.status === 409)))
        return false;
      throw e;
    }
  }

  /**
   * Evicts a pod (that incarnation of it), as `kubectl drain` does, so its PodDisruptionBudget
   * has its say: false when the pod was already gone; a refusing budget is an ApiError 429.
   */
  async evict(ref: ObjectRef, uid: string): Promise<boolean> {
    try {
      await this.rest.request({
        method: 'POST',
        path: `${await this.pathOf(ref)}/eviction`,
        body: {
          apiVersion: 'policy/v1',
          kind: 'Eviction',
          metadata: { name: ref.name, namespace: ref.namespace },
          deleteOptions: { preconditions: { uid } },
        },
        answers: [429],
      });
      return true;
    } catch (e) {
      if (e instanceof ApiError && (e.status === 404 || e.status === 409)) return false;
      throw e;
    }
  }

  /** A JSON merge patch (RFC 7396) of an object: what `kubectl rollout restart` amounts to. */
  async mergePatch(ref: ObjectRef, patch: Record<string, unknown>): Promise<KubeObject> {
    const res = await this.rest.request({
      method: 'PATCH',
      path: await this.pathOf(ref),
      query: { fieldManager: FIELD_MANAGER },
      body: patch,
      contentType: 'application/merge-patch+json',
    });
    return res.body as KubeObject;
  }

  /** Resolves once the object no longer exists; rejects after `timeoutMs`. */
  async waitGone(
    ref: ObjectRef,
    timeoutMs: number,
    sleep = (ms: number) => new Promise((r) => setTimeout(r, ms)),
  ): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (let delay = 50; ; delay = Math.min(delay * 2, 1_000)) {
      if ((await this.get(ref)) === undefined) return;
      if (Date.now() >= deadline) {
        throw new ApiError(
          this.cluster,
          408,
          'Timeout',
          `${ref.kind} ${ref.namespace ? `${ref.namespace}/` : ''}${ref.name} still exists after ${Math.round(timeoutMs / 1000)} s (a finalizer may hold it)`,
          `waiting for ${ref.kind} ${ref.name} to be deleted`,
        );
      }
      await sleep(delay);
    }
  }
}
