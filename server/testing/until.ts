/**
 * Asks `probe` every `everyMs` until it answers a value (anything but undefined or false), and answers that value;
 * fails naming `what` once `timeoutMs` have passed. An error the probe throws ends the wait at once (vi.waitFor would
 * ask again, and a broken probe would only show as a timeout).
 */
export async function until<T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 15_000, everyMs = 100): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
