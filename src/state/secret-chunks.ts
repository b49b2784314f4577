/**
 * A state too large for one Secret (the API server refuses more than 1 MiB of data) spills into
 * chunk Secrets. A write never touches the chunks a reader may be reading: it writes a new
 * generation of chunks under fresh names, then switches the head Secret to that generation in
 * one conditional update, and only then removes older generations. A reader that finds a chunk
 * gone or foreign has met such a switch and reads the head again.
 *
 * Which chunks may be removed: those of a generation the head does not name and written for a
 * serial at or below the head's. A writer still on its way writes chunks for a serial above the
 * head's (its head update will be based on the current head), so its chunks are never removed.
 */
import { randomBytes } from 'node:crypto';
import { type NamespacedApi, type SecretObject } from './kube-api.js';
import { ANNOTATION, chunkName, LABEL, labelsOf, selectorOf, stateId } from './kube-names.js';
import type { StateKey } from './model.js';

/** Bytes per chunk: under the 1 MiB a Secret's data may hold. */
export const CHUNK_BYTES = 1_000_000;
/** Chunks read or written at once. */
const PARALLEL = 4;

const CHUNK_TYPE = 'kdeck.io/state-chunk';

export const newGeneration = () => randomBytes(4).toString('hex');

export function splitPayload(payload: Buffer, size = CHUNK_BYTES): Buffer[] {
  const parts: Buffer[] = [];
  for (let at = 0; at < payload.length; at += size) parts.push(payload.subarray(at, at + size));
  return parts;
}

async function eachBounded<T>(items: T[], fn: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, items.length) }, worker));
}

export interface ChunkSet {
  head: string;
  key: StateKey;
  generation: string;
  serial: number;
}

/** Writes the chunk Secrets of a new generation. */
export async function writeChunks(api: NamespacedApi, set: ChunkSet, parts: Buffer[]): Promise<void> {
  await eachBounded(parts, async (bytes, index) => {
    const secret: SecretObject = {
      metadata: {
        name: chunkName(set.head, set.generation, index),
        labels: {
          ...labelsOf(set.key, 'state-chunk'),
          [LABEL.generation]: set.generation,
          [LABEL.serial]: String(set.serial),
        },
        annotations: { [ANNOTATION.index]: String(index) },
      },
      type: CHUNK_TYPE,
      data: { chunk: bytes.toString('base64') },
    };
    await api.create('secrets', secret);
  });
}

/**
 * The payload of a generation's `count` chunks, or undefined when one of them is gone or
 * belongs to another generation (a writer switched the head meanwhile).
 */
export async function readChunks(
  api: NamespacedApi,
  head: string,
  generation: string,
  count: number,
): Promise<Buffer | undefined> {
  const parts = new Array<Buffer | undefined>(count);
  await eachBounded(
    Array.from({ length: count }, (_, i) => i),
    async (index) => {
      const secret = await api.get<SecretObject>('secrets', chunkName(head, generation, index));
      const ours =
        secret?.metadata.labels?.[LABEL.generation] === generation &&
        secret.metadata.annotations?.[ANNOTATION.index] === String(index);
      parts[index] = ours && secret.data?.chunk !== undefined ? Buffer.from(secret.data.chunk, 'base64') : undefined;
    },
  );
  return parts.every((p) => p !== undefined) ? Buffer.concat(parts as Buffer[]) : undefined;
}

/** Removes the chunks of one generation (a write that lost its race leaves none behind). */
export async function removeGeneration(
  api: NamespacedApi,
  head: string,
  generation: string,
  count: number,
): Promise<void> {
  await eachBounded(
    Array.from({ length: count }, (_, i) => i),
    async (index) => {
      await api.delete('secrets', chunkName(head, generation, index));
    },
  );
}

/** Removes the chunks the head no longer names (see the rule above). */
export async function sweepChunks(
  api: NamespacedApi,
  key: StateKey,
  keep: string | undefined,
  serial: number,
): Promise<void> {
  const chunks = await api.list<SecretObject>('secrets', selectorOf('state-chunk', { [LABEL.stateId]: stateId(key) }));
  const stale = chunks.filter(
    (c) => c.metadata.labels?.[LABEL.generation] !== keep && Number(c.metadata.labels?.[LABEL.serial]) <= serial,
  );
  await eachBounded(stale, async (c) => {
    await api.delete('secrets', c.metadata.name, c.metadata.resourceVersion);
  });
}
