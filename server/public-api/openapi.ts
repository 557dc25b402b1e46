import { z } from 'zod';
import { API_DAILY_LIMITS } from '../../common/api-keys';
import { PAGE_SIZES, pageQuerySchema } from '../../common/pagination';
import { VERSION } from '../version';
import { baselineEntryOutputSchema, decisionBodySchema, decisionSchema } from '../../common/triage';
import { scanDiffQuerySchema, scanDiffSchema } from '../../common/scan-history';
import { createV1ScanBodySchema, detailSchema, v1IdParamsSchema, v1PageQuerySchema, v1ProjectListSchema, v1ScanHistorySchema, v1ScanListSchema, v1ScanSchema } from './schemas';

// The OpenAPI 3.1 description of /v1, built from the zod schemas the routes validate and answer with, so the
// document cannot drift from the code. OpenAPI 3.1 schemas are JSON Schema 2020-12, zod 4's default target.

type Json = Record<string, unknown>;

const schema = (type: z.ZodType, io: 'input' | 'output'): Json => {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(type, { io, unrepresentable: 'any' }) as Json;
  return rest;
};

const limits = Object.entries(API_DAILY_LIMITS)
  .map(([plan, limit]) => `${plan} ${limit === null ? 'custom' : `${limit.toLocaleString('en-US')}/day`}`)
  .join(', ');

const rateHeaders = {
  'RateLimit-Policy': {
    description: 'The daily quota (IETF draft-ietf-httpapi-ratelimit-headers), e.g. `"daily";q=100;w=86400`. Absent on plans without a daily limit.',
    schema: { type: 'string' },
  },
  RateLimit: {
    description: 'Requests remaining today and seconds until midnight UTC, e.g. `"daily";r=42;t=3600`. Absent on plans without a daily limit.',
    schema: { type: 'string' },
  },
};

const detail = (description: string, headers: Json = rateHeaders) => ({
  description,
  headers,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});
const ok = (description: string, ref: string, extraHeaders: Json = {}) => ({
  description,
  headers: { ...rateHeaders, ...extraHeaders },
  content: { 'application/json': { schema: { $ref: `#/components/schemas/${ref}` } } },
});

const errors = {
  '401': detail('No API key, an invalid or revoked one, or a dashboard session token instead of a key.', { 'WWW-Authenticate': { schema: { type: 'string', const: 'Bearer' } } }),
  '429': detail('The daily limit of the plan is reached (or too many scans were requested in a minute).', {
    ...rateHeaders,
    'Retry-After': { description: 'Seconds until requests are accepted again (for the daily limit: the next midnight UTC).', schema: { type: 'integer' } },
  }),
};

/** The query of a paged list; `query` is the route's own (the decisions list pages up to 500, the others 100). */
const pageParameters = (query_: z.ZodType = v1PageQuerySchema) => {
  const query = schema(query_, 'input') as { properties: Record<string, Json> };
  return Object.entries(query.properties).map(([name, property]) => ({ name, in: 'query', required: false, description: property.description, schema: property }));
};

const idParameter = () => {
  const params = schema(v1IdParamsSchema, 'input') as { properties: { id: Json } };
  return [{ name: 'id', in: 'path', required: true, description: params.properties.id.description, schema: params.properties.id }];
};

function paths(): Json {
  return {
    '/v1/scans': {
      get: {
        operationId: 'listScans',
        summary: 'List scans',
        description: 'The scans of the key’s account, newest first, and their total.',
        parameters: pageParameters(),
        responses: {
          '200': ok('A page of scans.', 'ScanList', { 'X-Next-Cursor': { description: 'The next page’s cursor; absent on the last page.', schema: { type: 'string' } } }),
          '400': detail('A bad limit or cursor.'),
          ...errors,
        },
      },
      post: {
        operationId: 'createScan',
        summary: 'Start a scan',
        description:
          'Queues a real scan of the URL in the project for that URL (created when the account has none). One scan runs per project at a time: while one is pending or in progress, the answer is 409 naming it.',
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/CreateScan' } } } },
        responses: {
          '202': ok('The scan is queued (status pending). Poll GET /v1/scans/{id} until it is completed or failed.', 'Scan', { Location: { schema: { type: 'string' } } }),
          '400': detail('An invalid body, or a URL the server’s address policy refuses (private and loopback addresses in server mode).'),
          '409': detail('A scan of this URL is already pending or in progress.'),
          ...errors,
        },
      },
    },
    '/v1/scans/{id}': {
      get: {
        operationId: 'getScan',
        summary: 'Get a scan and its results',
        description:
          'The scan; once it is completed, its results: findings with evidence, and `coverage`, what the scan could not check (no findings with gaps there does not mean a safe site).',
        parameters: idParameter(),
        responses: { '200': ok('The scan; `results` once it is completed.', 'Scan'), '404': detail('No scan of this account has this id.'), ...errors },
      },
    },
    '/v1/projects': {
      get: {
        operationId: 'listProjects',
        summary: 'List projects',
        description: 'The projects of the key’s account, newest first, each with its latest scan.',
        parameters: pageParameters(),
        responses: { '200': ok('A page of projects.', 'ProjectList'), '400': detail('A bad limit or cursor.'), ...errors },
      },
    },
    ...triagePaths(),
    ...historyPaths(),
  };
}

/** GET /v1/projects/{id}/decisions' query, as the route defines it (server/triage/routes.ts). */
const decisionsPageQuery = pageQuerySchema(PAGE_SIZES.decisions)
  .extend({
    limit: pageQuerySchema(PAGE_SIZES.decisions).shape.limit.describe('Items per page.'),
    cursor: v1PageQuerySchema.shape.cursor,
  })
  .strict();
const projectIdParameter = { name: 'id', in: 'path', required: true, description: 'The project id.', schema: { type: 'string', maxLength: 100 } };
const fingerprintParameter = {
  name: 'fingerprint',
  in: 'path',
  required: true,
  description: 'The finding’s fingerprint (as in a scan’s findings).',
  schema: { type: 'string', pattern: '^[0-9a-f]{16,64}$' },
};
const noProject = detail('No project of this account has this id.');

/** Triage: a project's decisions about its findings, and the baseline file for `vibeeval scan --baseline`. */
function triagePaths(): Json {
  return {
    '/v1/projects/{id}/decisions': {
      get: {
        operationId: 'listDecisions',
        summary: 'List a project’s triage decisions',
        description: 'Findings marked as false positive or accepted risk, the latest first; expired ones are listed with `active: false`.',
        parameters: [projectIdParameter, ...pageParameters(decisionsPageQuery)],
        responses: { '200': ok('A page of decisions.', 'DecisionList'), '400': detail('A bad limit or cursor.'), '404': noProject, ...errors },
      },
    },
    '/v1/projects/{id}/decisions/{fingerprint}': {
      put: {
        operationId: 'setDecision',
        summary: 'Mark a finding as false positive or accepted risk',
        description: 'The decision applies to every later scan of the project (score, grade, counts, notifications, reports) until it expires or the finding changes.',
        parameters: [projectIdParameter, fingerprintParameter],
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/DecisionBody' } } } },
        responses: { '200': ok('The decision as stored.', 'Decision'), '400': detail('An invalid body or fingerprint.'), '404': noProject, ...errors },
      },
      delete: {
        operationId: 'reopenFinding',
        summary: 'Reopen a finding',
        description: 'Deletes the decision: the finding counts again.',
        parameters: [projectIdParameter, fingerprintParameter],
        responses: { '204': { description: 'Reopened.', headers: rateHeaders }, '404': detail('No such project, or no decision on this fingerprint.'), ...errors },
      },
    },
    '/v1/projects/{id}/baseline': {
      get: {
        operationId: 'getBaseline',
        summary: 'Export the project’s baseline',
        description: 'The decisions in force, as the JSON file `vibeeval scan <url> --baseline <file>` reads.',
        parameters: [projectIdParameter],
        responses: { '200': ok('The baseline entries.', 'Baseline'), '404': noProject, ...errors },
      },
    },
  };
}

const diffParameters = () => {
  const query = schema(scanDiffQuerySchema, 'input') as { properties: Record<string, Json> };
  const said = {
    from: 'The scan compared from (a completed scan of the project); the completed scan before `to` when absent.',
    to: 'The scan compared to (a completed scan of the project); the latest completed scan when absent.',
  };
  return Object.entries(query.properties).map(([name, property]) => ({ name, in: 'query', required: false, description: said[name as keyof typeof said], schema: property }));
};

/** Scan history: a project's scans with what started each, and what changed between two of them. */
function historyPaths(): Json {
  return {
    '/v1/projects/{id}/scans': {
      get: {
        operationId: 'listProjectScans',
        summary: 'List a project’s scans',
        description: 'Every scan of the project, newest first, with what started it (manual, schedule, site_change, api), its state, grade and counts by severity.',
        parameters: [projectIdParameter, ...pageParameters()],
        responses: { '200': ok('A page of the project’s scans.', 'ScanHistory'), '400': detail('A bad limit or cursor.'), '404': noProject, ...errors },
      },
    },
    '/v1/projects/{id}/scans/diff': {
      get: {
        operationId: 'diffProjectScans',
        summary: 'Compare two scans of a project',
        description:
          'What is new in `to`, what was fixed since `from` and what stayed, by finding fingerprint (most severe first, at most 200 of each; `counts` has them all). Findings marked as false positive or accepted risk are neither new nor fixed. Without parameters: the latest completed scan against the one before it.',
        parameters: [projectIdParameter, ...diffParameters()],
        responses: {
          '200': ok('What changed.', 'ScanDiff'),
          '400': detail('An id that is not a scan id, a scan that is not completed, or the same scan twice.'),
          '404': detail('No project of this account has this id, no such scan in the project, or the project has no completed scan.'),
          ...errors,
        },
      },
    },
  };
}

let cached: { origin: string; document: Json } | undefined;

/** The OpenAPI 3.1 document of the public API, for clients, the dashboard's Documentation tab and code generators. */
export function openApiDocument(origin: string): Json {
  if (cached?.origin === origin) return cached.document;
  const document: Json = {
    openapi: '3.1.0',
    info: {
      title: 'vibeeval public API',
      version: VERSION,
      description:
        `Scan websites for security holes from CI jobs, scripts and AI coding agents. Authenticate with an API key from the dashboard (API → API Keys): \`Authorization: Bearer vb_live_…\`. ` +
        `Requests per UTC day by plan: ${limits}; every answer carries the RateLimit-Policy and RateLimit headers.`,
    },
    servers: [{ url: origin }],
    security: [{ apiKey: [] }],
    paths: paths(),
    components: {
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', bearerFormat: 'vb_live_ followed by 26 letters and digits', description: 'An API key created in the dashboard.' },
      },
      schemas: {
        CreateScan: schema(createV1ScanBodySchema, 'input'),
        Scan: schema(v1ScanSchema, 'output'),
        ScanList: schema(v1ScanListSchema, 'output'),
        ProjectList: schema(v1ProjectListSchema, 'output'),
        DecisionBody: schema(decisionBodySchema, 'input'),
        Decision: schema(decisionSchema, 'output'),
        DecisionList: schema(z.object({ decisions: z.array(decisionSchema), next_cursor: z.string().nullable() }), 'output'),
        Baseline: schema(z.array(baselineEntryOutputSchema), 'output'),
        ScanHistory: schema(v1ScanHistorySchema, 'output'),
        ScanDiff: schema(scanDiffSchema, 'output'),
        Error: { ...schema(detailSchema, 'output'), examples: [{ detail: 'This API key is not valid: it was revoked or never existed.' }] },
      },
    },
  };
  cached = { origin, document };
  return document;
}
