/**
 * Every context of a kubeconfig, usable at once: a stack on sandbox-a and another on sandbox-b
 * are applied in one run, each through its own client.
 */
import { UserError } from '../diagnostics/user-error.js';
import type { ContextAccess, ContextInfo, Kubeconfig } from './kubeconfig.js';
import { ObjectClient } from './objects.js';
import { DEFAULT_RETRY, RestClient, type RetryPolicy } from './rest.js';

export class ClusterSet {
  private readonly clients = new Map<string, ObjectClient>();
  private readonly configs = new Map<string, ContextAccess>();

  constructor(
    readonly kubeconfig: Kubeconfig,
    private readonly retry: RetryPolicy = DEFAULT_RETRY,
  ) {}

  get contexts(): ContextInfo[] {
    return this.kubeconfig.contexts;
  }

  get current(): string | undefined {
    return this.kubeconfig.current;
  }

  /** The context a stack or resource names, or the current one. */
  resolve(context: string | undefined): string {
    const name = context ?? this.current;
    if (!name) {
      throw new UserError(
        `the kubeconfig (${this.kubeconfig.files.join(', ')}) has no current context; pick one with --context or name the cluster in stack.yaml`,
      );
    }
    return name;
  }

  /** How to reach the cluster of a context (a context the kubeconfig lacks is a UserError). */
  config(context: string | undefined): ContextAccess {
    const name = this.resolve(context);
    let kc = this.configs.get(name);
    if (!kc) {
      kc = this.kubeconfig.configFor(name);
      this.configs.set(name, kc);
    }
    return kc;
  }

  client(context: string | undefined): ObjectClient {
    const name = this.resolve(context);
    let client = this.clients.get(name);
    if (!client) {
      const access = this.config(name);
      client = new ObjectClient(new RestClient(name, access, this.retry), access.namespace ?? 'default');
      this.clients.set(name, client);
    }
    return client;
  }
}
