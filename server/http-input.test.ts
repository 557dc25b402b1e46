import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { createProjectBodySchema, eventsQuerySchema, updateProjectBodySchema } from '../common/projects';
import { publicScanRequestSchema } from '../common/public-scan';
import { validationDetail } from './http-errors';
import { boundedJsonRecord, findNul, jsonDepth, jsonNestsDeeperThan } from './http-input';

/** The first issue of a failed parse, as fastify-type-provider-zod hands it to the error handler. */
function detailOf(schema: z.ZodType, input: unknown, part = 'body'): string {
  const result = schema.safeParse(input);
  if (result.success) throw new Error('expected the input to be refused');
  const validation = result.error.issues.map(({ code, path, message, ...params }) => ({ keyword: code, instancePath: `/${path.join('/')}`, message, params }));
  return validationDetail({ validation, validationContext: part as 'body', message: 'fallback' } as Parameters<typeof validationDetail>[0]);
}

describe('validation messages', () => {
  it("keeps the spec's own texts word for word", () => {
    expect(detailOf(createProjectBodySchema, { url: 'not a url' })).toBe('Please enter a valid URL');
    expect(detailOf(createProjectBodySchema, { url: 'https://example.com', num_pages: 0 })).toBe('Number of pages must be at least 1');
    expect(detailOf(createProjectBodySchema, { url: 'https://example.com', instruction_text: 'x'.repeat(1001) })).toBe('Instructions cannot exceed 1000 characters');
    expect(detailOf(publicScanRequestSchema, { url: 'https://example.com', email: 'nope' })).toBe('Please enter a valid email address');
  });

  it("names the field in zod's own messages", () => {
    expect(detailOf(createProjectBodySchema, { url: 'https://example.com', num_pages: 'x' })).toBe('num_pages: Invalid input: expected number, received string');
    expect(detailOf(createProjectBodySchema, {})).toBe('url: Invalid input: expected string, received undefined');
    expect(detailOf(createProjectBodySchema, 'text')).toBe('body: Invalid input: expected object, received string');
    expect(detailOf(updateProjectBodySchema, { owner: 'me' })).toBe('body: Unrecognized key: "owner"');
    expect(detailOf(eventsQuerySchema, { limit: '501' }, 'querystring')).toBe('limit: cannot exceed 500');
    expect(detailOf(boundedJsonRecord('data', { depth: 2, bytes: 100 }).array(), [{}, 'x'])).toBe('[1]: Invalid input: expected record, received string');
  });
});

describe('JSON input limits', () => {
  it('measures nesting in JSON text without counting brackets inside strings', () => {
    expect(jsonNestsDeeperThan('{"a":[1,{"b":2}]}', 3)).toBe(false);
    expect(jsonNestsDeeperThan('{"a":[1,{"b":2}]}', 2)).toBe(true);
    expect(jsonNestsDeeperThan(`{"a":"${'['.repeat(100)}"}`, 1)).toBe(false);
    expect(jsonNestsDeeperThan(`{"a":"\\"${'{'.repeat(100)}"}`, 1)).toBe(false);
    expect(jsonNestsDeeperThan('['.repeat(5000), 32)).toBe(true);
  });

  it('finds a NUL in a value or a key and says where', () => {
    expect(findNul({ url: 'https://example.com', status: 'a\u0000' })).toBe('status');
    expect(findNul({ data: { tags: ['ok', 'x\u0000'] } })).toBe('data.tags[1]');
    expect(findNul({ data: { 'a\u0000b': 1 } })).toBe('data."a\\u0000b"');
    expect(findNul({ 'weird key': { 'x y': '\u0000' } })).toBe('"weird key"."x y"');
    expect(findNul('\u0000')).toBe('');
    expect(findNul({ data: { fine: ['\\u0000 as text'] } })).toBeNull();
  });

  it('bounds free-form records in depth and size, with the field named', () => {
    const metadata = boundedJsonRecord('data', { depth: 3, bytes: 64 });
    expect(jsonDepth({ a: { b: { c: 1 } } }, 10)).toBe(3);
    expect(metadata.safeParse({ a: { b: { c: 1 } } }).success).toBe(true);
    expect(detailOf(metadata, { a: { b: { c: { d: 1 } } } })).toBe('data: may nest at most 3 levels deep');
    expect(detailOf(metadata, { a: 'x'.repeat(100) })).toBe('data: may take at most 64 bytes as JSON');
  });
});
