export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Polls `probe` until it answers something other than undefined, and answers that; fails naming
 * `what` after `timeoutMs`. For outcomes that arrive asynchronously (runs, ticks, deliveries).
 */
export async function eventually<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000, intervalMs = 200): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value !== undefined) return value;
    await sleep(intervalMs);
  }
  throw new Error(`timed out waiting for ${what}`);
}
