// Reads the public API's OpenAPI 3.1 document (GET /v1/openapi.json) into what the Documentation tab shows: each
// operation with its parameters, body and answers in a readable form, and ready-to-paste curl and fetch examples.
// Hand-written rather than swagger-ui or redoc: those weigh megabytes and inject inline styles the CSP refuses.

/** The key the examples show; users paste their own in its place. */
export const PLACEHOLDER_KEY = 'vb_live_YOUR_KEY';

/** A JSON Schema node as OpenAPI 3.1 writes it (only the parts we read). */
export interface SchemaNode {
  $ref?: string;
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  const?: unknown;
  description?: string;
  example?: unknown;
  examples?: unknown[];
  default?: unknown;
  properties?: Record<string, SchemaNode>;
  required?: string[];
  items?: SchemaNode;
  additionalProperties?: boolean | SchemaNode;
  oneOf?: SchemaNode[];
  anyOf?: SchemaNode[];
  allOf?: SchemaNode[];
  nullable?: boolean;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
}

interface RawParameter {
  $ref?: string;
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  description?: string;
  schema?: SchemaNode;
  example?: unknown;
}

interface RawResponse {
  $ref?: string;
  description?: string;
  headers?: Record<string, { description?: string; schema?: SchemaNode; $ref?: string }>;
  content?: Record<string, { schema?: SchemaNode; example?: unknown }>;
}

interface RawOperation {
  summary?: string;
  description?: string;
  operationId?: string;
  parameters?: RawParameter[];
  requestBody?: { $ref?: string; required?: boolean; content?: Record<string, { schema?: SchemaNode; example?: unknown }> };
  responses?: Record<string, RawResponse>;
  security?: Record<string, string[]>[];
}

interface SecurityScheme {
  type?: string;
  scheme?: string;
  in?: string;
  name?: string;
}

/** The parts of an OpenAPI document we read. */
export interface OpenApiDocument {
  openapi?: string;
  info?: { title?: string; version?: string; description?: string };
  servers?: { url: string }[];
  paths?: Record<string, Record<string, RawOperation | RawParameter[] | undefined>>;
  components?: {
    schemas?: Record<string, SchemaNode>;
    parameters?: Record<string, RawParameter>;
    responses?: Record<string, RawResponse>;
    securitySchemes?: Record<string, SecurityScheme>;
  };
  security?: Record<string, string[]>[];
}

export interface OperationParameter {
  name: string;
  location: RawParameter['in'];
  required: boolean;
  description: string | null;
  type: string;
}

export interface OperationResponse {
  status: string;
  description: string;
  headers: { name: string; description: string | null }[];
  schema: SchemaNode | null;
}

/** One operation as the Documentation tab shows it. */
export interface Operation {
  id: string;
  method: string;
  path: string;
  summary: string;
  description: string | null;
  parameters: OperationParameter[];
  requestBody: SchemaNode | null;
  responses: OperationResponse[];
  /** The header a caller authenticates with, e.g. 'Authorization: Bearer vb_live_YOUR_KEY'; null when open. */
  auth: { name: string; value: string } | null;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
/** How deep nested schemas are followed: the API's bodies are shallow, and this stops reference cycles. */
const MAX_DEPTH = 6;

/** The node a local '#/components/...' reference points at; unknown references resolve to an empty schema. */
export function resolveRef<T extends { $ref?: string }>(doc: OpenApiDocument, node: T): T {
  let current: T = node;
  for (let hops = 0; current.$ref && hops < 10; hops += 1) {
    const path = current.$ref
      .replace(/^#\//, '')
      .split('/')
      .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
    let target: unknown = doc;
    for (const part of path) target = typeof target === 'object' && target !== null ? (target as Record<string, unknown>)[part] : undefined;
    if (typeof target !== 'object' || target === null) return {} as T;
    current = target as T;
  }
  return current;
}

/** The schema's types without 'null', and whether it may be null (3.1 type arrays, or 3.0 `nullable`). */
function typesOf(schema: SchemaNode): { types: string[]; nullable: boolean } {
  const raw = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  return { types: raw.filter((type) => type !== 'null'), nullable: raw.includes('null') || schema.nullable === true };
}

/** allOf parts merged into one object schema (properties and required lists joined). */
function mergeAllOf(doc: OpenApiDocument, schema: SchemaNode): SchemaNode {
  if (!schema.allOf) return schema;
  const parts = schema.allOf.map((part) => mergeAllOf(doc, resolveRef(doc, part)));
  const { allOf: _parts, ...rest } = schema;
  return parts.reduce<SchemaNode>(
    (merged, part) => ({
      ...part,
      ...merged,
      properties: { ...part.properties, ...merged.properties },
      required: [...(merged.required ?? []), ...(part.required ?? [])],
    }),
    rest,
  );
}

function variants(schema: SchemaNode): SchemaNode[] | null {
  return schema.oneOf ?? schema.anyOf ?? null;
}

/** Bounds a schema generator adds to every integer (Number.MIN/MAX_SAFE_INTEGER) say nothing to a reader. */
const meaningfulBound = (bound: number | undefined) => (bound !== undefined && Math.abs(bound) < Number.MAX_SAFE_INTEGER ? bound : undefined);

function constraintNote(schema: SchemaNode): string {
  const notes: string[] = [];
  const minimum = meaningfulBound(schema.minimum);
  const maximum = meaningfulBound(schema.maximum);
  if (schema.format) notes.push(schema.format);
  if (minimum !== undefined && maximum !== undefined) notes.push(`${minimum}–${maximum}`);
  else if (minimum !== undefined) notes.push(`≥ ${minimum}`);
  else if (maximum !== undefined) notes.push(`≤ ${maximum}`);
  if (schema.maxLength !== undefined) notes.push(`max ${schema.maxLength} chars`);
  return notes.length > 0 ? ` (${notes.join(', ')})` : '';
}

/** A union's labels without the 'any' of an empty variant when the others say something, and without repeats. */
function unionLabel(labels: string[]): string {
  const distinct = [...new Set(labels.flatMap((label) => label.split(' | ')))];
  const useful = distinct.filter((label) => label !== 'any');
  return (useful.length > 0 ? useful : distinct).join(' | ');
}

/** A one-line type for simple schemas: 'string (uri)', '"a" | "b"', 'integer[]', 'object'. */
export function typeLabel(doc: OpenApiDocument, node: SchemaNode | undefined, depth = 0): string {
  if (!node) return 'any';
  const schema = mergeAllOf(doc, resolveRef(doc, node));
  const { types, nullable } = typesOf(schema);
  const suffix = nullable ? ' | null' : '';
  if (schema.const !== undefined) return JSON.stringify(schema.const) + suffix;
  if (schema.enum) return schema.enum.map((value) => JSON.stringify(value)).join(' | ') + suffix;
  const options = variants(schema);
  if (options && depth < MAX_DEPTH) return unionLabel([...options.map((option) => typeLabel(doc, option, depth + 1)), ...(nullable ? ['null'] : [])]);
  if (types.includes('array')) return `${depth < MAX_DEPTH ? typeLabel(doc, schema.items, depth + 1) : 'any'}[]${suffix}`;
  if (types.length === 0 && schema.properties) return `object${suffix}`;
  return `${types.join(' | ') || 'any'}${constraintNote(schema)}${suffix}`;
}

function objectLines(doc: OpenApiDocument, schema: SchemaNode, indent: string, depth: number): string[] {
  const required = new Set(schema.required ?? []);
  const lines = ['{'];
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const body = schemaLines(doc, property, `${indent}  `, depth + 1);
    const description = resolveRef(doc, property).description;
    const comment = description ? `  // ${description.split('\n')[0]}` : '';
    lines.push(`${indent}  ${name}${required.has(name) ? '' : '?'}: ${body[0]}${body.length === 1 ? comment : ''}`, ...body.slice(1));
  }
  if (typeof schema.additionalProperties === 'object') lines.push(`${indent}  [key: string]: ${typeLabel(doc, schema.additionalProperties, depth + 1)}`);
  lines.push(`${indent}}`);
  return lines;
}

/** The lines of a schema written out: objects as `{ name?: type }` blocks, nested objects indented. */
function schemaLines(doc: OpenApiDocument, node: SchemaNode, indent: string, depth: number): string[] {
  const schema = mergeAllOf(doc, resolveRef(doc, node));
  const { types, nullable } = typesOf(schema);
  if (depth >= MAX_DEPTH) return [typeLabel(doc, schema, MAX_DEPTH)];
  const isObject = (types.includes('object') || (types.length === 0 && schema.properties)) && schema.properties && Object.keys(schema.properties).length > 0;
  if (isObject) {
    const lines = objectLines(doc, schema, indent, depth);
    if (nullable) lines[lines.length - 1] += ' | null';
    return lines;
  }
  if (types.includes('array') && schema.items) {
    const inner = schemaLines(doc, schema.items, indent, depth + 1);
    if (inner.length > 1) {
      inner[0] = `Array<${inner[0]}`;
      inner[inner.length - 1] += `>${nullable ? ' | null' : ''}`;
      return inner;
    }
  }
  return [typeLabel(doc, schema, depth)];
}

/** A schema in a readable, TypeScript-like form ('?' marks optional fields; a field's description follows it). */
export function schemaToText(doc: OpenApiDocument, node: SchemaNode): string {
  return schemaLines(doc, node, '', 0).join('\n');
}

function exampleOfString(schema: SchemaNode): string {
  switch (schema.format) {
    case 'uri':
    case 'url':
      return 'https://example.com';
    case 'uuid':
      return '00000000-0000-0000-0000-000000000000';
    case 'date-time':
      return '2025-01-01T00:00:00.000Z';
    case 'email':
      return 'you@example.com';
    default:
      return 'string';
  }
}

/** A value that fits the schema: its own example or default when it has one, else one made from its type. */
export function exampleFromSchema(doc: OpenApiDocument, node: SchemaNode | undefined, depth = 0): unknown {
  if (!node) return null;
  const schema = mergeAllOf(doc, resolveRef(doc, node));
  if (schema.example !== undefined) return schema.example;
  if (schema.examples && schema.examples.length > 0) return schema.examples[0];
  if (schema.default !== undefined) return schema.default;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum && schema.enum.length > 0) return schema.enum[0];
  const options = variants(schema);
  if (options && options.length > 0) return depth < MAX_DEPTH ? exampleFromSchema(doc, options[0], depth + 1) : null;
  const { types } = typesOf(schema);
  const type = types[0] ?? (schema.properties ? 'object' : undefined);
  if (depth >= MAX_DEPTH) return null;
  switch (type) {
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([name, property]) => [name, exampleFromSchema(doc, property, depth + 1)]));
    case 'array':
      return [exampleFromSchema(doc, schema.items, depth + 1)];
    case 'string':
      return exampleOfString(schema);
    case 'integer':
    case 'number':
      return meaningfulBound(schema.minimum) ?? 1;
    case 'boolean':
      return true;
    default:
      return null;
  }
}

/** The JSON schema of a request body or response, when it has one. */
function jsonSchemaOf(content: Record<string, { schema?: SchemaNode }> | undefined): SchemaNode | null {
  if (!content) return null;
  const entry = content['application/json'] ?? Object.entries(content).find(([type]) => type.includes('json'))?.[1];
  return entry?.schema ?? null;
}

function authOf(doc: OpenApiDocument, operation: RawOperation): Operation['auth'] {
  const requirements = operation.security ?? doc.security ?? [];
  for (const requirement of requirements) {
    for (const name of Object.keys(requirement)) {
      const scheme = doc.components?.securitySchemes?.[name];
      if (scheme?.type === 'http' && scheme.scheme?.toLowerCase() === 'bearer') return { name: 'Authorization', value: `Bearer ${PLACEHOLDER_KEY}` };
      if (scheme?.type === 'apiKey' && scheme.in === 'header' && scheme.name) return { name: scheme.name, value: PLACEHOLDER_KEY };
    }
  }
  return null;
}

function parametersOf(doc: OpenApiDocument, shared: RawParameter[], own: RawParameter[]): OperationParameter[] {
  const byKey = new Map<string, RawParameter>();
  for (const raw of [...shared, ...own]) {
    const parameter = resolveRef(doc, raw);
    if (parameter.name) byKey.set(`${parameter.in}:${parameter.name}`, parameter);
  }
  return [...byKey.values()].map((parameter) => ({
    name: parameter.name,
    location: parameter.in,
    required: parameter.in === 'path' || parameter.required === true,
    description: parameter.description ?? resolveRef(doc, parameter.schema ?? {}).description ?? null,
    type: typeLabel(doc, parameter.schema),
  }));
}

function responsesOf(doc: OpenApiDocument, operation: RawOperation): OperationResponse[] {
  return Object.entries(operation.responses ?? {})
    .map(([status, raw]) => {
      const response = resolveRef(doc, raw);
      return {
        status,
        description: response.description ?? '',
        headers: Object.entries(response.headers ?? {}).map(([name, header]) => ({ name, description: resolveRef(doc, header).description ?? null })),
        schema: jsonSchemaOf(response.content),
      };
    })
    .sort((a, b) => a.status.localeCompare(b.status));
}

/** Every operation of the document, in the document's order of paths and then get, post, put, patch, delete. */
export function listOperations(doc: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    const shared = Array.isArray(item.parameters) ? item.parameters : [];
    for (const method of METHODS) {
      const operation = item[method] as RawOperation | undefined;
      if (!operation || Array.isArray(operation)) continue;
      operations.push({
        id: operation.operationId ?? `${method}-${path}`,
        method: method.toUpperCase(),
        path,
        summary: operation.summary ?? operation.description?.split('\n')[0] ?? `${method.toUpperCase()} ${path}`,
        description: operation.summary ? (operation.description ?? null) : null,
        parameters: parametersOf(doc, shared, operation.parameters ?? []),
        requestBody: jsonSchemaOf(resolveRef(doc, operation.requestBody ?? {}).content),
        responses: responsesOf(doc, operation),
        auth: authOf(doc, operation),
      });
    }
  }
  return operations;
}

/**
 * Where the documented paths start: the server's own origin plus the path of the document's first server (its
 * host is ignored, since the document cannot know the address this app reaches the server at).
 */
export function apiBaseUrl(origin: string, doc: OpenApiDocument): string {
  const declared = doc.servers?.[0]?.url ?? '';
  let path = declared;
  try {
    if (/^[a-z]+:\/\//i.test(declared)) path = new URL(declared).pathname;
  } catch {
    path = '';
  }
  return `${origin.replace(/\/+$/, '')}${path.replace(/\/+$/, '')}`;
}

/** The operation's URL with example values for its path parameters and its required query parameters. */
export function exampleUrl(doc: OpenApiDocument, operation: Operation, baseUrl: string): string {
  const raw = rawParameters(doc, operation);
  const valueOf = (parameter: RawParameter) => {
    const value = parameter.example ?? exampleFromSchema(doc, parameter.schema);
    const scalar = typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
    return !scalar || value === 'string' ? `YOUR_${parameter.name.toUpperCase()}` : String(value);
  };
  const path = operation.path.replace(/\{([^}]+)\}/g, (_match, name: string) => {
    const parameter = raw.find((candidate) => candidate.in === 'path' && candidate.name === name);
    return encodeURIComponent(parameter ? valueOf(parameter) : `YOUR_${name.toUpperCase()}`);
  });
  const query = raw
    .filter((parameter) => parameter.in === 'query' && parameter.required)
    .map((parameter) => `${encodeURIComponent(parameter.name)}=${encodeURIComponent(valueOf(parameter))}`);
  return `${baseUrl}${path}${query.length > 0 ? `?${query.join('&')}` : ''}`;
}

function rawParameters(doc: OpenApiDocument, operation: Operation): RawParameter[] {
  const item = doc.paths?.[operation.path] ?? {};
  const shared = Array.isArray(item.parameters) ? item.parameters : [];
  const own = (item[operation.method.toLowerCase()] as RawOperation | undefined)?.parameters ?? [];
  return [...shared, ...own].map((parameter) => resolveRef(doc, parameter));
}

/** The example body of an operation (from its request schema), or undefined when it takes none. */
export function exampleBody(doc: OpenApiDocument, operation: Operation): unknown {
  return operation.requestBody ? exampleFromSchema(doc, operation.requestBody) : undefined;
}

/** A word quoted for a POSIX shell: single quotes, with each ' written as '\''. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** A curl command calling the operation with the placeholder key (and a JSON body when it takes one). */
export function curlExample(doc: OpenApiDocument, operation: Operation, baseUrl: string): string {
  const parts = [
    operation.method === 'GET' ? `curl ${shellQuote(exampleUrl(doc, operation, baseUrl))}` : `curl -X ${operation.method} ${shellQuote(exampleUrl(doc, operation, baseUrl))}`,
  ];
  if (operation.auth) parts.push(`-H ${shellQuote(`${operation.auth.name}: ${operation.auth.value}`)}`);
  const body = exampleBody(doc, operation);
  if (body !== undefined) parts.push(`-H 'Content-Type: application/json'`, `-d ${shellQuote(JSON.stringify(body, null, 2))}`);
  return parts.join(' \\\n  ');
}

/** JavaScript (fetch) calling the operation with the placeholder key, reading the JSON answer. */
export function fetchExample(doc: OpenApiDocument, operation: Operation, baseUrl: string): string {
  const headers: string[] = [];
  if (operation.auth) headers.push(`    ${JSON.stringify(operation.auth.name)}: ${JSON.stringify(operation.auth.value)},`);
  const body = exampleBody(doc, operation);
  if (body !== undefined) headers.push(`    "Content-Type": "application/json",`);
  const init: string[] = [`  method: ${JSON.stringify(operation.method)},`];
  if (headers.length > 0) init.push('  headers: {', ...headers, '  },');
  if (body !== undefined) init.push(`  body: JSON.stringify(${JSON.stringify(body, null, 2).replace(/\n/g, '\n  ')}),`);
  return [
    `const response = await fetch(${JSON.stringify(exampleUrl(doc, operation, baseUrl))}, {`,
    ...init,
    '});',
    'if (!response.ok) throw new Error(`Request failed: ${response.status}`);',
    'const data = await response.json();',
  ].join('\n');
}

/** Whether a value looks like an OpenAPI document (an object with `paths`). */
export function isOpenApiDocument(value: unknown): value is OpenApiDocument {
  return typeof value === 'object' && value !== null && typeof (value as { paths?: unknown }).paths === 'object';
}
