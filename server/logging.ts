import type { FastifyBaseLogger } from 'fastify';
import pino, { type Bindings, type ChildLoggerOptions, type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import { scrubText, scrubUrl } from './log-scrub';

// The one logger of the server, the worker and the CLI's serve and worker commands. What it may never write:
// secrets, hashes, tokens, signatures, and the query strings of capability URLs. Three layers keep them out:
// serializers for requests (no headers, the URL scrubbed) and errors (message and stack scrubbed, no query
// parameters, no bodies, no PostgreSQL details), redaction of known secret keys in logged objects, and a hook
// that scrubs every message text.

/** Keys whose values are secrets, in any object logged (one and two levels deep). */
const SECRET_KEYS = [
  'password',
  'passwordHash',
  'password_hash',
  'access_token',
  'refresh_token',
  'token',
  'tokenHash',
  'token_hash',
  'ticket',
  'sig',
  'signature',
  'signed_url',
  'secret',
  'secret_instruction',
  'secretInstruction',
  'apikey',
  'authorization',
  'cookie',
  'jwtSecret',
  'linkSecret',
  'pgPassword',
  'params',
  'parameters',
  'body',
];
const REDACT_PATHS = [...SECRET_KEYS, ...SECRET_KEYS.map((key) => `*.${key}`), ...SECRET_KEYS.map((key) => `*.*.${key}`), 'req.headers', 'res.headers', '*.headers["set-cookie"]'];

/** Error fields that are safe and useful (PostgreSQL's code and constraint name, the HTTP status). */
const ERROR_FIELDS = ['code', 'statusCode', 'constraint', 'table', 'column', 'routine', 'severity', 'validationContext'] as const;

interface SerializedError {
  type: string;
  message: string;
  stack?: string;
  cause?: SerializedError;
  [field: string]: unknown;
}

/** An error without its query, parameters, body or details; the message and stack scrubbed. */
export function serializeError(error: unknown, depth = 0): unknown {
  if (!(error instanceof Error)) return typeof error === 'string' ? scrubText(error) : error;
  const out: SerializedError = { type: error.constructor?.name ?? error.name, message: scrubText(error.message) };
  if (error.stack) out.stack = scrubText(error.stack);
  for (const field of ERROR_FIELDS) {
    const value = (error as unknown as Record<string, unknown>)[field];
    if (typeof value === 'string' || typeof value === 'number') out[field] = value;
  }
  if (error.cause !== undefined && depth < 3) out.cause = serializeError(error.cause, depth + 1) as SerializedError;
  return out;
}

interface RequestLike {
  method?: string;
  url?: string;
  id?: string;
  routeOptions?: { url?: string };
  socket?: { remoteAddress?: string };
  ip?: string;
}

/** A request as logged: method, scrubbed URL, route, client address; never headers or body. */
export function serializeRequest(request: RequestLike) {
  return {
    method: request.method,
    url: scrubUrl(request.url ?? ''),
    route: request.routeOptions?.url,
    remoteAddress: request.ip ?? request.socket?.remoteAddress,
  };
}

function scrubArgument(value: unknown): unknown {
  if (typeof value === 'string') return scrubText(value);
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, typeof item === 'string' ? scrubText(item) : item]));
  }
  return value;
}

export interface LoggerSettings {
  level: LoggerOptions['level'];
  /** Where lines go; stdout by default (tests capture them). */
  destination?: DestinationStream;
}

/**
 * Standard output for a process's loggers, shared by them so that their lines never interleave: written
 * asynchronously (lines logged while a write is in flight go out together in the next one), which under load
 * saves a system call per line; pino flushes what is left when the process exits.
 */
export function standardOutput(): DestinationStream {
  return pino.destination({ dest: 1, sync: false });
}

/** The logger of every vibeeval process, with the redaction and serializers above. */
export function createLogger({ level, destination }: LoggerSettings): Logger {
  const options: LoggerOptions = {
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: { err: serializeError, error: serializeError, req: serializeRequest },
    hooks: {
      logMethod(args, method) {
        // log.error(error) takes the line's message from the raw error: give it the scrubbed one instead.
        const [first, ...rest] = args as unknown[];
        if (first instanceof Error) {
          const message = typeof rest[0] === 'string' ? rest : [scrubText(first.message), ...rest];
          return method.apply(this, [{ err: first }, ...message.map(scrubArgument)] as Parameters<typeof method>);
        }
        return method.apply(this, args.map(scrubArgument) as Parameters<typeof method>);
      },
    },
  };
  return destination ? pino(options, destination) : pino(options);
}

/**
 * Fastify's logger of one request (`request.log`), made into a pino child only when something is logged through it.
 * A child of the main logger passes its bindings through the redaction (some microseconds, more than the rest of a
 * cached answer); most requests log nothing but their access line, which has a logger of its own.
 */
class RequestLogger {
  #made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  /** The pino child, made on first use, with the bindings and options Fastify gave (the request's id). */
  get logger(): FastifyBaseLogger {
    return (this.#made ??= this.parent.child(this.bindings, this.options));
  }

  get level(): string {
    return this.#made?.level ?? this.options.level ?? this.parent.level;
  }

  set level(level: string) {
    this.logger.level = level;
  }

  fatal(...args: unknown[]) {
    Reflect.apply(this.logger.fatal, this.logger, args);
  }

  error(...args: unknown[]) {
    Reflect.apply(this.logger.error, this.logger, args);
  }

  warn(...args: unknown[]) {
    Reflect.apply(this.logger.warn, this.logger, args);
  }

  info(...args: unknown[]) {
    Reflect.apply(this.logger.info, this.logger, args);
  }

  debug(...args: unknown[]) {
    Reflect.apply(this.logger.debug, this.logger, args);
  }

  trace(...args: unknown[]) {
    Reflect.apply(this.logger.trace, this.logger, args);
  }

  silent(...args: unknown[]) {
    Reflect.apply(this.logger.silent, this.logger, args);
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger.child(bindings, options);
  }
}

/** Fastify's `childLoggerFactory`: each request's logger is made when it first logs (see RequestLogger). */
export function requestLoggerFactory(logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  return new RequestLogger(logger, bindings, options);
}

/**
 * The access log: one line per answered request, built only from `serializeRequest` (method, scrubbed URL, route,
 * client address), the status and the time taken, so nothing in it needs redaction. It is a logger of its own
 * because the redaction of the main logger (dozens of wildcard paths) costs more than the rest of a request.
 */
export function createAccessLogger({ level, destination }: LoggerSettings): Logger {
  const options: LoggerOptions = { level, base: { pid: process.pid } };
  return destination ? pino(options, destination) : pino(options);
}

/** The access log line of an answered request. */
export function accessLine(request: RequestLike & { id?: string }, statusCode: number, responseTime: number) {
  return { reqId: request.id, req: serializeRequest(request), res: { statusCode }, responseTime: Math.round(responseTime * 10) / 10 };
}
