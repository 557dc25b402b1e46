import { describe, expect, it } from 'vitest';
import { apiBaseUrl, curlExample, exampleFromSchema, fetchExample, listOperations, schemaToText, shellQuote, type OpenApiDocument } from './openapi';

const rateLimited = {
  description: 'Daily limit reached',
  headers: {
    'Retry-After': { description: 'Seconds until the limit resets', schema: { type: 'integer' } },
    RateLimit: { description: 'Remaining requests and reset', schema: { type: 'string' } },
  },
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
};

const doc: OpenApiDocument = {
  openapi: '3.1.0',
  servers: [{ url: 'http://localhost:8787/v1' }],
  security: [{ bearer: [] }],
  components: {
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
    schemas: {
      Error: { type: 'object', properties: { detail: { type: 'string' } }, required: ['detail'] },
      Scan: {
        type: 'object',
        required: ['id', 'status'],
        properties: {
          id: { type: 'string', format: 'uuid' },
          status: { type: 'string', enum: ['pending', 'in_progress', 'completed'] },
          score: { type: ['integer', 'null'], minimum: 0, maximum: 100 },
        },
      },
    },
  },
  paths: {
    '/scans': {
      get: {
        summary: 'List your scans',
        parameters: [{ name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100 } }],
        responses: {
          '200': {
            description: 'Scans and total',
            content: {
              'application/json': {
                schema: { type: 'object', properties: { scans: { type: 'array', items: { $ref: '#/components/schemas/Scan' } }, total: { type: 'integer' } } },
              },
            },
          },
          '429': rateLimited,
        },
      },
      post: {
        summary: 'Start a scan',
        requestBody: {
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['url'],
                properties: {
                  url: { type: 'string', format: 'uri', description: "The site's address" },
                  options: { type: 'object', properties: { depth: { type: 'integer', minimum: 1, maximum: 5, default: 2 }, include_screenshots: { type: 'boolean' } } },
                },
              },
            },
          },
        },
        responses: { '202': { description: 'Queued', content: { 'application/json': { schema: { $ref: '#/components/schemas/Scan' } } } } },
      },
    },
    '/scans/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
      get: { summary: 'One scan', responses: { '200': { description: 'The scan' }, '404': { description: 'Not found' } } },
    },
    '/openapi.json': { get: { summary: 'This document', security: [], responses: { '200': { description: 'OpenAPI' } } } },
  },
};

const base = apiBaseUrl('http://127.0.0.1:4321', doc);

describe('listOperations', () => {
  const operations = listOperations(doc);
  it('lists every operation with its method and path', () => {
    expect(operations.map((op) => `${op.method} ${op.path}`)).toEqual(['GET /scans', 'POST /scans', 'GET /scans/{id}', 'GET /openapi.json']);
  });
  it('reads parameters (the path-level ones too), auth and responses with their headers', () => {
    const [list, , one, openapi] = operations;
    expect(list!.parameters).toEqual([{ name: 'limit', location: 'query', required: false, description: null, type: 'integer (1–100)' }]);
    expect(one!.parameters[0]).toMatchObject({ name: 'id', location: 'path', required: true, type: 'string (uuid)' });
    expect(list!.auth).toEqual({ name: 'Authorization', value: 'Bearer vb_live_YOUR_KEY' });
    expect(openapi!.auth).toBeNull();
    const tooMany = list!.responses.find((response) => response.status === '429');
    expect(tooMany?.headers.map((header) => header.name)).toEqual(['Retry-After', 'RateLimit']);
    expect(tooMany?.description).toBe('Daily limit reached');
  });
});

describe('schemaToText', () => {
  it('writes objects with optional marks, enums, nullable numbers, arrays and descriptions', () => {
    const [list, post] = listOperations(doc);
    expect(schemaToText(doc, post!.requestBody!)).toBe(
      ['{', "  url: string (uri)  // The site's address", '  options?: {', '    depth?: integer (1–5)', '    include_screenshots?: boolean', '  }', '}'].join('\n'),
    );
    const ok = list!.responses.find((response) => response.status === '200')!.schema!;
    expect(schemaToText(doc, ok)).toBe(
      [
        '{',
        '  scans?: Array<{',
        '    id: string (uuid)',
        '    status: "pending" | "in_progress" | "completed"',
        '    score?: integer (0–100) | null',
        '  }>',
        '  total?: integer',
        '}',
      ].join('\n'),
    );
  });
  it('leaves out the safe-integer bounds schema generators add, and the empty variant of a union', () => {
    const generated: OpenApiDocument = { paths: {} };
    expect(schemaToText(generated, { type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 })).toBe('integer');
    expect(schemaToText(generated, { type: 'integer', minimum: 0, maximum: 9007199254740991 })).toBe('integer (≥ 0)');
    expect(schemaToText(generated, { anyOf: [{ type: 'integer' }, {}, { type: 'null' }] })).toBe('integer | null');
    expect(exampleFromSchema(generated, { type: 'integer', minimum: -9007199254740991 })).toBe(1);
  });
  it('stops at a reference cycle', () => {
    const cyclic: OpenApiDocument = { paths: {}, components: { schemas: { Node: { type: 'object', properties: { child: { $ref: '#/components/schemas/Node' } } } } } };
    expect(schemaToText(cyclic, { $ref: '#/components/schemas/Node' }).split('\n').length).toBeLessThan(20);
  });
});

describe('examples', () => {
  const [list, post, one] = listOperations(doc);
  it('uses the server origin with the document server path', () => {
    expect(base).toBe('http://127.0.0.1:4321/v1');
    expect(apiBaseUrl('http://x:1/', { paths: {}, servers: [{ url: '/v1/' }] })).toBe('http://x:1/v1');
    expect(apiBaseUrl('http://x:1', { paths: {} })).toBe('http://x:1');
  });
  it('makes a body from the schema (defaults, formats, booleans)', () => {
    expect(exampleFromSchema(doc, post!.requestBody!)).toEqual({ url: 'https://example.com', options: { depth: 2, include_screenshots: true } });
  });
  it('curl for a GET: the URL and the auth header', () => {
    expect(curlExample(doc, list!, base)).toBe("curl 'http://127.0.0.1:4321/v1/scans' \\\n  -H 'Authorization: Bearer vb_live_YOUR_KEY'");
  });
  it('curl for a GET with a path parameter', () => {
    expect(curlExample(doc, one!, base)).toContain("curl 'http://127.0.0.1:4321/v1/scans/00000000-0000-0000-0000-000000000000'");
  });
  it('curl for a POST with a JSON body', () => {
    const curl = curlExample(doc, post!, base);
    expect(curl).toMatch(
      /^curl -X POST 'http:\/\/127\.0\.0\.1:4321\/v1\/scans' \\\n {2}-H 'Authorization: Bearer vb_live_YOUR_KEY' \\\n {2}-H 'Content-Type: application\/json' \\\n {2}-d '\{/,
    );
    const body = curl.slice(curl.indexOf("-d '") + 4, -1);
    expect(JSON.parse(body)).toEqual({ url: 'https://example.com', options: { depth: 2, include_screenshots: true } });
  });
  it('fetch for a GET', () => {
    expect(fetchExample(doc, list!, base)).toBe(
      [
        'const response = await fetch("http://127.0.0.1:4321/v1/scans", {',
        '  method: "GET",',
        '  headers: {',
        '    "Authorization": "Bearer vb_live_YOUR_KEY",',
        '  },',
        '});',
        'if (!response.ok) throw new Error(`Request failed: ${response.status}`);',
        'const data = await response.json();',
      ].join('\n'),
    );
  });
  it('fetch for a POST is runnable JavaScript sending the body', async () => {
    const code = fetchExample(doc, post!, base);
    expect(code).toContain('"Content-Type": "application/json"');
    const calls: [string, RequestInit][] = [];
    const fakeFetch = (url: string, init: RequestInit) => {
      calls.push([url, init]);
      return Promise.resolve({ ok: true, status: 202, json: () => Promise.resolve({ id: 'x' }) });
    };
    // Run the generated code against a stand-in fetch: it must parse and send what the schema asks for.
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the code under test is generated JavaScript
    const run = new Function('fetch', `return (async () => { ${code}\n return data; })();`) as (f: typeof fakeFetch) => Promise<unknown>;
    await expect(run(fakeFetch)).resolves.toEqual({ id: 'x' });
    expect(calls[0]![0]).toBe('http://127.0.0.1:4321/v1/scans');
    expect(calls[0]![1].method).toBe('POST');
    expect(JSON.parse(calls[0]![1].body as string)).toEqual({ url: 'https://example.com', options: { depth: 2, include_screenshots: true } });
  });
  it('quotes single quotes for the shell', () => {
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
  });
});
