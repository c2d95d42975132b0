/**
 * Polls `probe` until it returns a value other than undefined, or gives up after `timeoutMs`
 * with the last description `probe` gave of what it saw. The timeout is a guard against a hung
 * scenario, not an assertion on speed.
 */
export async function eventually<T>(
  what: string,
  probe: (report: (seen: unknown) => void) => Promise<T | undefined>,
  options: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 90_000);
  let last: unknown;
  const report = (seen: unknown) => {
    last = seen;
  };
  for (;;) {
    const value = await probe(report);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}; last seen: ${JSON.stringify(last)}`);
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 250));
  }
}
