/**
 * Faults a cluster can be told to show, at start or while it runs (through the library handle
 * or `/__sandbox/faults`). Some are conventions read from the objects themselves, so a Konfig
 * file can ask for them: an image tagged `:nopull` (or from the `sandbox.invalid` registry)
 * never pulls, `:crashloop` crashes over and over, `:neverready` never passes readiness, and the
 * pod annotation `sandbox.kdeck.dev/readiness-delay: 30s` slows one pod's readiness down.
 */
import { ApiError, internalError, tooManyRequests } from './api/errors.js';
import { isMap } from './json.js';
import type { Random } from './random.js';

export interface ApiErrorRule {
  /** The status to answer with: 429 (with Retry-After), 500, 503 or 504. */
  status: 429 | 500 | 503 | 504;
  /** The share of matching requests that fail, from 0 to 1. */
  rate: number;
  /** Verbs to fail (get, list, watch, create, update, patch, delete); all when absent. */
  verbs?: string[];
  /** Resources to fail, by plural name (pods, deployments); all when absent. */
  resources?: string[];
  retryAfterSeconds?: number;
}

export type WatchDropMode = 'reset' | 'end' | 'expire';

export interface FaultSettings {
  apiErrors: ApiErrorRule[];
  /** Every watch connection is dropped after sending this many events. */
  watchDropAfterEvents?: number;
  /** reset: the socket is destroyed; end: a clean close; expire: an ERROR 410 event, then close. */
  watchDropMode: WatchDropMode;
  /** The cluster accepts connections and never answers (watches go silent). */
  unresponsive: boolean;
  /** Nodes whose kubelet stops reporting: Ready=Unknown, tainted unreachable. */
  notReadyNodes: string[];
  /** Readiness delay for every pod, overriding the cluster's (slow readiness). */
  readinessDelayMs?: number;
  /** Images (substrings) that never pull, besides the `:nopull` convention. */
  noPullImages: string[];
  /** Images (substrings) whose containers crash, besides the `:crashloop` convention. */
  crashLoopImages: string[];
}

export function noFaults(): FaultSettings {
  return {
    apiErrors: [],
    watchDropMode: 'reset',
    unresponsive: false,
    notReadyNodes: [],
    noPullImages: [],
    crashLoopImages: [],
  };
}

export type ContainerFault = 'nopull' | 'crashloop' | 'neverready' | undefined;

function tagOf(image: string): string {
  const lastSlash = image.lastIndexOf('/');
  const colon = image.indexOf(':', lastSlash + 1);
  return colon < 0 ? '' : image.slice(colon + 1).split('@')[0]!;
}

const MODES: readonly WatchDropMode[] = ['reset', 'end', 'expire'];
const STATUSES = [429, 500, 503, 504];

/** Settings from JSON (the admin endpoint, a seed): unknown keys and bad values are refused. */
export function parseFaultSettings(v: unknown, base: FaultSettings = noFaults()): FaultSettings {
  if (!isMap(v)) throw new Error('fault settings must be a JSON object');
  const out: FaultSettings = { ...base };
  for (const [k, x] of Object.entries(v)) {
    switch (k) {
      case 'apiErrors':
        if (!Array.isArray(x)) throw new Error('apiErrors must be a list');
        out.apiErrors = x.map((r, i) => {
          if (
            !isMap(r) ||
            !STATUSES.includes(Number(r.status)) ||
            typeof r.rate !== 'number' ||
            r.rate < 0 ||
            r.rate > 1
          ) {
            throw new Error(`apiErrors[${i}] needs a status (429, 500, 503 or 504) and a rate between 0 and 1`);
          }
          const rule: ApiErrorRule = { status: Number(r.status) as ApiErrorRule['status'], rate: r.rate };
          if (Array.isArray(r.verbs)) rule.verbs = r.verbs.map(String);
          if (Array.isArray(r.resources)) rule.resources = r.resources.map(String);
          if (typeof r.retryAfterSeconds === 'number') rule.retryAfterSeconds = r.retryAfterSeconds;
          return rule;
        });
        break;
      case 'watchDropAfterEvents':
      case 'readinessDelayMs':
        if (x === null) delete out[k];
        else if (typeof x === 'number' && x >= 0) out[k] = x;
        else throw new Error(`${k} must be a non-negative number`);
        break;
      case 'watchDropMode':
        if (!MODES.includes(x as WatchDropMode)) throw new Error(`watchDropMode must be one of ${MODES.join(', ')}`);
        out.watchDropMode = x as WatchDropMode;
        break;
      case 'unresponsive':
        if (typeof x !== 'boolean') throw new Error('unresponsive must be true or false');
        out.unresponsive = x;
        break;
      case 'notReadyNodes':
      case 'noPullImages':
      case 'crashLoopImages':
        if (!Array.isArray(x)) throw new Error(`${k} must be a list of strings`);
        out[k] = x.map(String);
        break;
      default:
        throw new Error(`unknown fault "${k}"`);
    }
  }
  return out;
}

/** One cluster's faults, with listeners for the controllers that must react to a change. */
export class Faults {
  private settings: FaultSettings;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly random: Random,
    initial: Partial<FaultSettings> = {},
  ) {
    this.settings = { ...noFaults(), ...initial };
  }

  get current(): Readonly<FaultSettings> {
    return this.settings;
  }

  /** Changes some settings, keeping the rest. */
  set(change: Partial<FaultSettings>): void {
    this.settings = { ...this.settings, ...change };
    for (const l of this.listeners) l();
  }

  clear(): void {
    this.settings = noFaults();
    for (const l of this.listeners) l();
  }

  onChange(l: () => void): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }

  /** The injected failure for a request, if a rule picks it. */
  apiErrorFor(verb: string, resource: string | undefined): ApiError | undefined {
    for (const rule of this.settings.apiErrors) {
      if (rule.verbs && !rule.verbs.includes(verb)) continue;
      if (rule.resources && (resource === undefined || !rule.resources.includes(resource))) continue;
      if (this.random.next() >= rule.rate) continue;
      switch (rule.status) {
        case 429:
          return tooManyRequests(rule.retryAfterSeconds ?? 1);
        case 500:
          return internalError('injected by the sandbox (fault apiErrors)');
        case 503:
          return new ApiError(
            503,
            'ServiceUnavailable',
            'the server is currently unable to handle the request (injected by the sandbox)',
            { retryAfterSeconds: rule.retryAfterSeconds ?? 1 },
            { 'Retry-After': String(rule.retryAfterSeconds ?? 1) },
          );
        case 504:
          return new ApiError(
            504,
            'Timeout',
            'the server was unable to return a response in the time allotted (injected by the sandbox)',
            { retryAfterSeconds: rule.retryAfterSeconds ?? 1 },
          );
      }
    }
    return undefined;
  }

  /** Which fault, if any, a container image brings with it. */
  containerFault(image: string): ContainerFault {
    const tag = tagOf(image);
    if (
      tag === 'nopull' ||
      image.startsWith('sandbox.invalid/') ||
      this.settings.noPullImages.some((p) => image.includes(p))
    )
      return 'nopull';
    if (tag === 'crashloop' || this.settings.crashLoopImages.some((p) => image.includes(p))) return 'crashloop';
    if (tag === 'neverready') return 'neverready';
    return undefined;
  }
}

export const READINESS_DELAY_ANNOTATION = 'sandbox.kdeck.dev/readiness-delay';
