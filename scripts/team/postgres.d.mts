export interface RunningPostgres {
  /** postgres://vibeeval:…@127.0.0.1:<port>/vibeeval (password user, owns the database). */
  url: string;
  /** The same database as the superuser `postgres`. */
  superUrl: string;
  port: number;
  /** The temp dir holding the cluster, its socket and its log. */
  dataDir: string;
  /** The server's log so far. */
  log(): string;
  /** Stops the server and removes dataDir. */
  stop(): Promise<void>;
}

/** Starts a fresh cluster of Debian's postgresql as its own user on a free (or the given) 127.0.0.1 port. */
export function startPostgres(options?: { port?: number }): Promise<RunningPostgres>;
/** Where initdb and pg_ctl are; throws with the `apt-get install postgresql` hint when missing. */
export function postgresBinDir(): string;
/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number>;
