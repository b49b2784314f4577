/**
 * The limits of an apply or a destroy where the user names none, the same from the command line
 * and in the console.
 *
 * Concurrency counts API calls in flight; a resource waiting for its health holds no slot. 16
 * keeps a remote API server busy across its round trips (at 30 ms each, 8 in flight allow about
 * 270 calls a second) and is far below what an API server takes from one client (400 requests in
 * flight by default, 200 of them writes); it is also what the plan's dry runs use.
 */
export const DEFAULT_CONCURRENCY = 16;

/** How long each resource may take to become healthy or to be deleted. */
export const DEFAULT_TIMEOUT_MS = 5 * 60_000;
