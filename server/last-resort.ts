/**
 * The last line of defence of a long-running process (`vibeeval serve`, `vibeeval worker`, the desktop app's
 * server): a promise rejection nobody handled is logged and the process keeps serving, instead of Node's default
 * of exiting. Every known source is handled where it arises; this only keeps an unknown one from taking the
 * server, and the database it supervises, down with it. Returns the function that removes the handler.
 */
export function keepRunningOnUnhandledRejection(log: (message: string) => void): () => void {
  const handler = (reason: unknown) => {
    const text = reason instanceof Error ? (reason.stack ?? reason.message) : String(reason);
    log(`unhandled promise rejection (the process keeps running): ${text}`);
  };
  process.on('unhandledRejection', handler);
  return () => process.off('unhandledRejection', handler);
}
