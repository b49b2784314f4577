/**
 * Bounded waiting for tests: polls a condition until it holds or a limit passes, then fails
 * naming what it waited for. Tests never assert on time; they only wait, within a bound.
 */
export async function until(check: () => boolean, what: string, limitMs = 30_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${limitMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
