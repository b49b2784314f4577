/**
 * What the API verbs of one cluster work on: its store, its resource types, its clock and its
 * randomness, and the address allocators of its Services.
 */
import type { Clock } from '../clock.js';
import type { Random } from '../random.js';
import type { ResourceRegistry } from './resources.js';
import type { Store } from './store.js';

export interface ApiContext {
  readonly store: Store;
  readonly resources: ResourceRegistry;
  readonly clock: Clock;
  readonly random: Random;
  readonly addresses: AddressAllocator;
}

/** Options every write takes. */
export interface WriteOptions {
  /** Who makes the write: `?fieldManager`, or the User-Agent's program name. */
  manager: string;
  /** `dryRun=All`: validate and answer, store nothing. */
  dryRun?: boolean;
  /** `?fieldValidation=`: what to do with fields a schema does not declare (default Warn). */
  fieldValidation?: 'Strict' | 'Warn' | 'Ignore';
  /** The size of the request body that asked for the write (a client's, not a controller's). */
  requestBytes?: number;
}

/** Cluster IPs from 10.96.0.0/12 and node ports from 30000-32767, never handed out twice. */
export class AddressAllocator {
  private readonly usedIps = new Set<string>(['10.96.0.1']);
  private readonly usedPorts = new Set<number>();
  private nextIp = 10;
  private nextPort = 30000;

  clusterIp(): string {
    for (;;) {
      const n = this.nextIp++;
      const ip = `10.96.${(n >> 8) & 255}.${n & 255}`;
      if ((n & 255) !== 0 && !this.usedIps.has(ip)) {
        this.usedIps.add(ip);
        return ip;
      }
    }
  }

  nodePort(): number {
    while (this.usedPorts.has(this.nextPort)) this.nextPort++;
    const p = this.nextPort++;
    this.usedPorts.add(p);
    return p;
  }

  /** Marks addresses of restored or explicitly requested Services as taken. */
  reserve(ip: string | undefined, ports: readonly number[]): void {
    if (ip) this.usedIps.add(ip);
    for (const p of ports) this.usedPorts.add(p);
  }

  release(ip: string | undefined, ports: readonly number[]): void {
    if (ip && ip !== '10.96.0.1') this.usedIps.delete(ip);
    for (const p of ports) this.usedPorts.delete(p);
  }
}
