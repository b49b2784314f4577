/**
 * The in-cluster state backend, for teams: the state of each (project, stack, cluster) is a
 * Secret in one namespace of one context (default `kdeck-system`, created on first use), and its
 * lock is a Lease beside it (lease-lock.ts). Everyone who runs kdeck against that context sees
 * the same states and respects the same locks.
 *
 * A write is conditional on the resourceVersion of the head Secret this process last read or
 * wrote, so a writer that lost a race gets StateConflictError and never overwrites the winner; a
 * head this process never read in full is read (and checked) before it is replaced, so a damaged
 * state is reported and never overwritten. Encoding is state-codec.ts; chunking past the 1 MiB
 * Secret limit, and why a reader never sees half a write, is secret-chunks.ts.
 *
 * No state data reaches an error message or a log line: states hold resource attributes, Secret
 * values among them.
 */
import type { RestClient } from '../cluster/rest.js';
import { UserError } from '../diagnostics/user-error.js';
import { lastOperations, StateConflictError, type Lock, type LockHolder, type StateBackend } from './backend.js';
import { isStatus, NamespacedApi, type SecretObject } from './kube-api.js';
import {
  ANNOTATION,
  keyAnnotations,
  keyFromAnnotations,
  labelsOf,
  sameKey,
  selectorOf,
  stateId,
  stateObjectName,
} from './kube-names.js';
import { LeaseLocks } from './lease-lock.js';
import { settledHistory, thisMachine } from './liveness.js';
import { describeKey, type OperationRecord, type State, type StateKey } from './model.js';
import {
  CHUNK_BYTES,
  newGeneration,
  readChunks,
  removeGeneration,
  splitPayload,
  sweepChunks,
  writeChunks,
} from './secret-chunks.js';
import { decodeState, DecodeProblem, encodeState } from './state-codec.js';

const STATE_TYPE = 'kdeck.io/state';

/** Times a read starts over because a writer switched chunk generations under it. */
const READ_ATTEMPTS = 5;

export interface KubernetesBackendOptions {
  /** The REST client of the context that keeps the states. */
  rest: RestClient;
  namespace: string;
  lockSeconds: number;
  /** The clock that judges lease expiry; tests pass a simulated one. */
  now?: () => Date;
}

/** What this process last read or wrote of a head Secret: the base of its next write. */
interface Seen {
  resourceVersion: string;
  serial: number;
  chunks: number;
}

export class KubernetesStateBackend implements StateBackend {
  readonly description: string;
  private readonly api: NamespacedApi;
  private readonly locks: LeaseLocks;
  private readonly seen = new Map<string, Seen>();

  constructor(private readonly options: KubernetesBackendOptions) {
    this.api = new NamespacedApi(options.rest, options.namespace);
    this.locks = new LeaseLocks(this.api, options.lockSeconds, options.now ?? (() => new Date()));
    this.description = `Secrets in namespace ${options.namespace} of context ${options.rest.cluster}`;
  }

  private get context(): string {
    return this.options.rest.cluster;
  }

  /** The one-paragraph report of a state Secret kdeck cannot use, with the way out. */
  private unusable(key: StateKey, name: string, problem: DecodeProblem | string): UserError {
    const where = `the state of ${describeKey(key)} in Secret ${this.options.namespace}/${name} (context ${this.context})`;
    const kubectl = `kubectl --context ${this.context} -n ${this.options.namespace}`;
    const selector = `-l kdeck.io/state-id=${stateId(key)}`;
    if (problem instanceof DecodeProblem && problem.kind === 'newer') {
      return new UserError(
        `${where} cannot be read: ${problem.message}. It was written by a newer kdeck: upgrade kdeck to work on this stack; kdeck leaves the Secret as it is.`,
        1,
      );
    }
    const what = problem instanceof DecodeProblem ? problem.message : problem;
    return new UserError(
      `${where} is damaged: ${what}. kdeck neither uses nor overwrites it. Restore it from a backup, or set it aside (${kubectl} get secret ${selector} -o yaml > saved-state.yaml, then ${kubectl} delete secret ${selector}) so that the next apply records the stack afresh; it then no longer knows what the stack dropped earlier, so delete those objects by hand.`,
      1,
    );
  }

  async read(key: StateKey): Promise<State | undefined> {
    const name = stateObjectName(key);
    for (let attempt = 0; attempt < READ_ATTEMPTS; attempt++) {
      const head = await this.api.get<SecretObject>('secrets', name);
      if (!head) {
        this.seen.delete(name);
        return undefined;
      }
      const a = head.metadata.annotations ?? {};
      const owner = keyFromAnnotations(a);
      if (!sameKey(owner, key)) {
        throw this.unusable(
          key,
          name,
          owner
            ? `the Secret holds the state of ${describeKey(owner)}, whose name maps to the same Secret name; rename one of the two stacks`
            : 'the Secret does not say whose state it holds (its kdeck.io annotations are missing)',
        );
      }
      const serial = Number(a[ANNOTATION.serial]);
      const chunks = Number(a[ANNOTATION.chunks] ?? '0');
      if (!Number.isInteger(serial) || !Number.isInteger(chunks) || chunks < 0)
        throw this.unusable(key, name, 'its serial or chunk count annotation is not a whole number');
      let payload: Buffer | undefined;
      if (chunks === 0) {
        if (head.data?.state === undefined) throw this.unusable(key, name, 'it holds no state data');
        payload = Buffer.from(head.data.state, 'base64');
      } else {
        payload = await readChunks(this.api, name, a[ANNOTATION.generation] ?? '', chunks);
        if (!payload) {
          // a writer may have switched generations since the head was read: the head says
          const again = await this.api.get<SecretObject>('secrets', name);
          if (again?.metadata.resourceVersion !== head.metadata.resourceVersion) continue;
          throw this.unusable(
            key,
            name,
            `one of its ${chunks} chunk Secrets (${name}-${a[ANNOTATION.generation] ?? '?'}-<n>) is missing`,
          );
        }
      }
      let state: State;
      try {
        state = decodeState(payload, a[ANNOTATION.encoding], a[ANNOTATION.digest]);
      } catch (e) {
        if (e instanceof DecodeProblem) throw this.unusable(key, name, e);
        throw e;
      }
      if (state.serial !== serial || !sameKey(state, key))
        throw this.unusable(key, name, 'its annotations and its content disagree on its serial or its stack');
      this.seen.set(name, { resourceVersion: head.metadata.resourceVersion ?? '', serial, chunks });
      return state;
    }
    throw new UserError(
      `the state of ${describeKey(key)} kept changing while kdeck read it (${READ_ATTEMPTS} attempts); another operation is writing it: try again once it is done`,
      1,
    );
  }

  /** The base of a write to `key`: what this process saw last, or a full (checked) read. */
  private async base(key: StateKey, expectedSerial: number): Promise<Seen | undefined> {
    const name = stateObjectName(key);
    const seen = this.seen.get(name);
    if (seen && seen.serial === expectedSerial) return seen;
    await this.read(key);
    return this.seen.get(name);
  }

  async write(state: State, expectedSerial: number): Promise<State> {
    const base = await this.base(state, expectedSerial);
    const found = base?.serial ?? 0;
    if (found !== expectedSerial) throw new StateConflictError(state, expectedSerial, found);
    const next: State = { ...state, serial: expectedSerial + 1 };
    await this.store(next, base, expectedSerial);
    return next;
  }

  async importState(state: State): Promise<void> {
    const base = await this.base(state, -1);
    if (base) throw new StateConflictError(state, 0, base.serial);
    await this.store(state, undefined, 0);
  }

  /** Writes `next` over `base` (or as a new head), conditional on base's resourceVersion. */
  private async store(next: State, base: Seen | undefined, expectedSerial: number): Promise<void> {
    const name = stateObjectName(next);
    const encoded = encodeState(next);
    const parts = encoded.payload.length > CHUNK_BYTES ? splitPayload(encoded.payload) : [];
    const generation = parts.length > 0 ? newGeneration() : undefined;
    if (generation) await writeChunks(this.api, { head: name, key: next, generation, serial: next.serial }, parts);
    const head: SecretObject = {
      metadata: {
        name,
        labels: labelsOf(next, 'state'),
        annotations: {
          ...keyAnnotations(next),
          [ANNOTATION.serial]: String(next.serial),
          [ANNOTATION.encoding]: encoded.encoding,
          [ANNOTATION.digest]: encoded.digest,
          [ANNOTATION.chunks]: String(parts.length),
          ...(generation ? { [ANNOTATION.generation]: generation } : {}),
        },
        ...(base ? { resourceVersion: base.resourceVersion } : {}),
      },
      type: STATE_TYPE,
      data: generation ? {} : { state: encoded.payload.toString('base64') },
    };
    let written: SecretObject;
    try {
      written = base ? await this.api.replace('secrets', head) : await this.api.create('secrets', head);
    } catch (e) {
      // the head as it is now; unknown when the cluster cannot even be asked
      const now = await this.api.get<SecretObject>('secrets', name).then(
        (h) => ({ head: h }),
        () => undefined,
      );
      const a = now?.head?.metadata.annotations ?? {};
      // a retried request whose first answer was lost finds its own write in place: that is success
      const ours =
        now?.head &&
        a[ANNOTATION.digest] === encoded.digest &&
        a[ANNOTATION.serial] === String(next.serial) &&
        a[ANNOTATION.generation] === generation;
      if (!ours || !now?.head) {
        this.seen.delete(name);
        // chunks the head certainly does not name go now; if the head is unknown, a later sweep takes them
        if (generation && now) await removeGeneration(this.api, name, generation, parts.length).catch(() => undefined);
        if (isStatus(e, 409)) throw new StateConflictError(next, expectedSerial, Number(a[ANNOTATION.serial] ?? 0));
        throw e;
      }
      written = now.head;
    }
    this.seen.set(name, {
      resourceVersion: written.metadata.resourceVersion ?? '',
      serial: next.serial,
      chunks: parts.length,
    });
    if (generation || (base?.chunks ?? 0) > 0) {
      // the state is written; chunks a failed sweep leaves behind go with the next chunked write
      await sweepChunks(this.api, next, generation, next.serial).catch(() => undefined);
    }
  }

  lock(key: StateKey, holder: LockHolder): Promise<Lock> {
    return this.locks.acquire(key, stateObjectName(key), holder);
  }

  lockHolder(key: StateKey): Promise<LockHolder | undefined> {
    return this.locks.holder(stateObjectName(key));
  }

  forceUnlock(key: StateKey, expected?: LockHolder): Promise<LockHolder | undefined> {
    return this.locks.remove(stateObjectName(key), expected);
  }

  async history(key: StateKey, count: number): Promise<OperationRecord[]> {
    // an operation whose process died still says `running`: its Lease says otherwise
    return settledHistory(lastOperations(await this.read(key), count), await this.lockHolder(key), thisMachine());
  }

  async list(): Promise<StateKey[]> {
    const heads = await this.api.list<SecretObject>('secrets', selectorOf('state'));
    const keys = heads
      .map((h) => keyFromAnnotations(h.metadata.annotations))
      .filter((k): k is StateKey => k !== undefined);
    const order = (k: StateKey) => [k.project, k.stack, k.cluster].join('\u0000');
    return keys.sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0));
  }
}
