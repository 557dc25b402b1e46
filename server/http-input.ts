import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';

/**
 * Limits every request's input meets before a route sees it. PostgreSQL refuses the NUL character in text and
 * jsonb, and deeply nested JSON overflows the stack of whatever walks it later (serialising for the database,
 * signing a token), so both are refused at the door with a 400 that names the field.
 */

/** Deepest nesting of any JSON body: far beyond what any route takes, far below what overflows a recursive walk. */
export const MAX_JSON_DEPTH = 32;

/** Free-form user metadata travels inside every access token (an HTTP header of at most 16 KB with the rest). */
export const USER_METADATA_LIMITS = { depth: 8, bytes: 4096 } as const;

/** A 400 about one field of the request; each API's error handler renders it in its own shape. */
export class InputError extends Error {
  readonly statusCode = 400;
  constructor(
    /** Where the bad value is: a JSON path in the body, a query or path parameter. */
    readonly field: string,
    problem: string,
  ) {
    super(`${field}: ${problem}`);
  }
}

/** True when JSON text nests arrays and objects deeper than `max` (strings are skipped, so brackets in them don't count). */
export function jsonNestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return false;
}

/** `data.tags[2]`: a readable path of a value inside the body. */
function childPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  const name = /^[A-Za-z_$][\w$-]*$/.test(key) ? key : JSON.stringify(key);
  return parent ? `${parent}.${name}` : name;
}

/** The path of the first string (value or key) holding a NUL character, or null. Depth is bounded by the parser. */
export function findNul(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findNul(value[i], childPath(path, i));
      if (found !== null) return found;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      if (key.includes('\u0000')) return childPath(path, key); // the key is shown JSON-escaped
      const found = findNul(child, childPath(path, key));
      if (found !== null) return found;
    }
  }
  return null;
}

/** Nesting depth of a parsed JSON value (a scalar is 0), counting no further than `limit + 1`. */
export function jsonDepth(value: unknown, limit: number): number {
  if (!value || typeof value !== 'object') return 0;
  if (limit < 0) return 1;
  let deepest = 0;
  for (const child of Object.values(value)) {
    deepest = Math.max(deepest, jsonDepth(child, limit - 1));
    if (deepest > limit) break;
  }
  return deepest + 1;
}

/** Bytes of a value serialised as JSON (UTF-8), as PostgreSQL and tokens will hold it. */
export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? '');
}

/** A free-form JSON object (user metadata and the like) bounded in depth and size; messages name `field`. */
export function boundedJsonRecord(field: string, limits: { depth: number; bytes: number }) {
  return z.record(z.string(), z.unknown()).superRefine((value, context) => {
    if (jsonDepth(value, limits.depth) > limits.depth) {
      context.addIssue({ code: 'custom', message: `${field}: may nest at most ${limits.depth} levels deep` });
    } else if (jsonBytes(value) > limits.bytes) {
      context.addIssue({ code: 'custom', message: `${field}: may take at most ${limits.bytes} bytes as JSON` });
    }
  });
}

/** Path and query parameters are named as they are; body values by their JSON path (`body` for the body itself). */
function checkNul(request: FastifyRequest) {
  for (const value of [request.params, request.query, request.body]) {
    const path = findNul(value);
    if (path !== null) throw new InputError(path || 'body', 'must not contain the NUL character (\\u0000)');
  }
}

/**
 * Installs the app-wide input checks on the root instance, before any route is registered: one JSON body parser
 * (depth-checked before parsing, prototype poisoning refused, an empty body read as `{}` because supabase-js posts
 * /logout so) and a hook that refuses NUL in path parameters, query parameters and body values or keys.
 */
export function installInputGuards(app: FastifyInstance) {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text.trim() === '') return done(null, {});
    if (jsonNestsDeeperThan(text, MAX_JSON_DEPTH)) return done(new InputError('body', `JSON may nest at most ${MAX_JSON_DEPTH} levels deep`), undefined);
    return parseJson(request, text, done);
  });
  app.addHook('preValidation', (request, _reply, done) => {
    checkNul(request);
    done();
  });
}
