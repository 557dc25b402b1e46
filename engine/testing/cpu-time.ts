/**
 * The CPU time (user + system, in ms) this process spends in `work`, with its result. Budgets of synchronous work
 * (a pattern over a long input, a scan of a large bundle) are held on CPU time, not wall time: on a busy machine
 * other programs stretch the wall time of the same work several times over, never its CPU time.
 */
export function cpuTimed<T>(work: () => T): { result: T; ms: number } {
  const before = process.cpuUsage();
  const result = work();
  const used = process.cpuUsage(before);
  return { result, ms: (used.user + used.system) / 1000 };
}

/**
 * The CPU time (ms) this process spends while `work` runs, with its result: for asynchronous work whose cost is this
 * process's (a server answering a flood of requests from clients in the same process). Only meaningful where nothing
 * else runs in the process meanwhile: test files that use it run in a process of their own (vitest.config.mts).
 */
export async function cpuTimedAsync<T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const before = process.cpuUsage();
  const result = await work();
  const used = process.cpuUsage(before);
  return { result, ms: (used.user + used.system) / 1000 };
}
