export interface VibeevalProcess {
  name: string;
  pid: number;
  /** http://127.0.0.1:<port> for `serve`; undefined for a worker. */
  origin: string | undefined;
  /** The last lines it printed (stdout and stderr). */
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Sends the signal ('SIGKILL' = kill -9) and waits for the exit. */
  kill(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `node bin/vibeeval.cjs serve|worker` with `env` and waits until it is ready. */
export function startVibeeval(command: 'serve' | 'worker', options?: { env?: Record<string, string>; name?: string; readyTimeoutMs?: number }): Promise<VibeevalProcess>;
