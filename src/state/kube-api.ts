/**
 * The few API calls the in-cluster state backend makes, on Secrets and Leases of one namespace:
 * get, create, conditional replace and delete, list by label. Conditions are the server's own
 * (resourceVersion on the object for a replace, preconditions for a delete), so a lost race comes
 * back as 409 and is never a silent overwrite. The namespace is created on the first write that
 * finds it missing.
 */
import { ApiError, type RestClient } from '../cluster/rest.js';

export interface KubeMeta {
  name: string;
  namespace?: string;
  resourceVersion?: string;
  uid?: string;
  creationTimestamp?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

export interface SecretObject {
  apiVersion?: string;
  kind?: string;
  metadata: KubeMeta;
  type?: string;
  /** base64, as the API carries Secret values. */
  data?: Record<string, string>;
}

export interface LeaseObject {
  apiVersion?: string;
  kind?: string;
  metadata: KubeMeta;
  spec?: { holderIdentity?: string; leaseDurationSeconds?: number; acquireTime?: string; renewTime?: string; leaseTransitions?: number };
}

type Kind = 'secrets' | 'leases';

const BASE: Record<Kind, string> = { secrets: '/api/v1', leases: '/apis/coordination.k8s.io/v1' };
const TYPE: Record<Kind, { apiVersion: string; kind: string }> = {
  secrets: { apiVersion: 'v1', kind: 'Secret' },
  leases: { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease' },
};

export const isStatus = (e: unknown, status: number, reason?: string): e is ApiError => e instanceof ApiError && e.status === status && (reason === undefined || e.reason === reason);

/** A 404 on a create says the namespace is missing (the object itself cannot be). */
const namespaceMissing = (e: unknown) => isStatus(e, 404);

export class NamespacedApi {
  private namespaceMade = false;

  constructor(
    readonly rest: RestClient,
    readonly namespace: string,
  ) {}

  private path(kind: Kind, name?: string): string {
    return `${BASE[kind]}/namespaces/${encodeURIComponent(this.namespace)}/${kind}${name === undefined ? '' : `/${encodeURIComponent(name)}`}`;
  }

  async get<T>(kind: Kind, name: string): Promise<T | undefined> {
    try {
      return (await this.rest.request({ method: 'GET', path: this.path(kind, name) })).body as T;
    } catch (e) {
      if (isStatus(e, 404)) return undefined;
      throw e;
    }
  }

  async list<T>(kind: Kind, labelSelector: string): Promise<T[]> {
    const body = (await this.rest.request({ method: 'GET', path: this.path(kind), query: { labelSelector } })).body as { items?: T[] } | undefined;
    return body?.items ?? [];
  }

  /** Creates `o`; 409 AlreadyExists when the name is taken. */
  async create<T extends { metadata: KubeMeta }>(kind: Kind, o: T): Promise<T> {
    const body = { ...TYPE[kind], ...o };
    try {
      return (await this.rest.request({ method: 'POST', path: this.path(kind), body })).body as T;
    } catch (e) {
      if (!namespaceMissing(e) || this.namespaceMade) throw e;
      await this.ensureNamespace();
      return (await this.rest.request({ method: 'POST', path: this.path(kind), body })).body as T;
    }
  }

  /** Replaces `o` if it is still at `o.metadata.resourceVersion`; 409 Conflict otherwise. */
  async replace<T extends { metadata: KubeMeta }>(kind: Kind, o: T): Promise<T> {
    return (await this.rest.request({ method: 'PUT', path: this.path(kind, o.metadata.name), body: { ...TYPE[kind], ...o } })).body as T;
  }

  /** Deletes `name` (only at `resourceVersion` when given); false when it was already gone. */
  async delete(kind: Kind, name: string, resourceVersion?: string): Promise<boolean> {
    try {
      await this.rest.request({
        method: 'DELETE',
        path: this.path(kind, name),
        body: { apiVersion: 'v1', kind: 'DeleteOptions', ...(resourceVersion ? { preconditions: { resourceVersion } } : {}) },
      });
      return true;
    } catch (e) {
      if (isStatus(e, 404)) return false;
      throw e;
    }
  }

  private async ensureNamespace(): Promise<void> {
    try {
      await this.rest.request({
        method: 'POST',
        path: '/api/v1/namespaces',
        body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: this.namespace, labels: { 'app.kubernetes.io/managed-by': 'kdeck' } } },
      });
    } catch (e) {
      if (!isStatus(e, 409)) throw e;
    }
    this.namespaceMade = true;
  }
}
