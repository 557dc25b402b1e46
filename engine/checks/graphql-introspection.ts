import { isSiteHost } from '../analysis/api-surface';
import { isSoft404 } from '../analysis/probe-answers';
import { isSensitiveField } from '../analysis/sensitive-fields';
import { analyzeSupabase, describeRequest, supabaseHeaders, unanswered } from '../analysis/supabase';
import { collectTexts } from '../secrets/scan';
import { defineCheck, type FindingDraft, type ProbeRequest, type Site, type SiteBeforeProbes } from '../types';

const ID = 'graphql-introspection';
/** Paths GraphQL servers use by default (Apollo, Yoga, Hasura, gqlgen). */
const COMMON_PATHS = ['/graphql', '/api/graphql', '/v1/graphql', '/query'] as const;
const MAX_ENDPOINTS = 8;

/**
 * The introspection query: type names, kinds and field types, enough to list sensitive fields and walk from the
 * query root. A query, never anything else: it is sent as GET, which GraphQL servers only accept for queries.
 */
export const INTROSPECTION_QUERY =
  'query Introspection{__schema{queryType{name}types{kind name fields(includeDeprecated:true){name type{kind name ofType{kind name ofType{kind name ofType{kind name}}}}}}}}';

const BUNDLE_ENDPOINT = /(["'`])((?:https?:\/\/[^"'`\s/]{1,200})?\/[\w/.-]{0,80}?(?:graphql|gql))\1/gi;
const EXTRA_SENSITIVE = /^(?:hash|salt|password_?digest|pass_?hash|pin|secret|reset_?token|api_?key|ssn)$/i;

interface Endpoint {
  url: string;
  headers: Record<string, string>;
  from: 'bundle' | 'common path' | 'Supabase pg_graphql';
}

/** GraphQL endpoints: those the code names (same site), the common paths, and each Supabase project's pg_graphql. */
export function graphqlEndpoints(site: SiteBeforeProbes): Endpoint[] {
  const siteHost = new URL(site.origin).host;
  const out = new Map<string, Endpoint>();
  const plain = { Accept: 'application/json', 'apollo-require-preflight': 'true' };
  for (const text of collectTexts(site)) {
    if (text.kind === 'storage' || text.kind === 'request') continue;
    for (const m of text.text.matchAll(BUNDLE_ENDPOINT)) {
      try {
        const url = new URL(m[2]!, site.origin);
        if (isSiteHost(url.host, siteHost) && !/\.(?:js|json|ts|css)$/.test(url.pathname) && !/\/graphql\/v1$/.test(url.pathname)) {
          out.set(url.origin + url.pathname, { url: url.origin + url.pathname, headers: plain, from: 'bundle' });
        }
      } catch {
        // not a URL
      }
    }
  }
  for (const path of COMMON_PATHS) {
    const url = new URL(path, site.origin).href;
    if (!out.has(url)) out.set(url, { url, headers: plain, from: 'common path' });
  }
  for (const project of analyzeSupabase(site).projects) {
    // pg_graphql sits behind the API gateway: it needs the public key, like the REST API.
    if (project.keys[0]) out.set(`${project.url}/graphql/v1`, { url: `${project.url}/graphql/v1`, headers: supabaseHeaders(project.keys[0]), from: 'Supabase pg_graphql' });
  }
  return [...out.values()].slice(0, MAX_ENDPOINTS);
}

const probeOf = (endpoint: Endpoint): ProbeRequest => ({
  key: `${ID}:${endpoint.url}`,
  method: 'GET',
  url: `${endpoint.url}?query=${encodeURIComponent(INTROSPECTION_QUERY)}`,
  headers: endpoint.headers,
});

interface TypeRef {
  kind?: string;
  name?: string | null;
  ofType?: TypeRef | null;
}
interface SchemaType {
  kind?: string;
  name?: string;
  fields?: Array<{ name?: string; type?: TypeRef }> | null;
}

const named = (ref: TypeRef | null | undefined): string | undefined => (ref ? (ref.name ?? named(ref.ofType)) : undefined);

/** The schema's types and query root from an introspection answer, or undefined when it is not one. */
export function schemaOf(body: string): { query: string; types: SchemaType[] } | undefined {
  try {
    const json = JSON.parse(body) as { data?: { __schema?: { queryType?: { name?: string }; types?: SchemaType[] } } };
    const schema = json?.data?.__schema;
    if (!schema || !Array.isArray(schema.types)) return undefined;
    return { query: schema.queryType?.name ?? 'Query', types: schema.types };
  } catch {
    return undefined;
  }
}

/** Sensitive fields of output types ("User.password"), and those on types reachable from the query root. */
export function sensitiveSchemaFields(schema: { query: string; types: SchemaType[] }): { all: string[]; reachable: string[] } {
  const byName = new Map(schema.types.filter((t) => t.name && !t.name.startsWith('__')).map((t) => [t.name!, t]));
  const reachableTypes = new Set<string>();
  const queue = [schema.query];
  while (queue.length > 0 && reachableTypes.size < 2_000) {
    const name = queue.shift()!;
    if (reachableTypes.has(name)) continue;
    reachableTypes.add(name);
    for (const field of byName.get(name)?.fields ?? []) {
      const target = named(field.type);
      if (target && byName.has(target) && !reachableTypes.has(target)) queue.push(target);
    }
  }
  const all: string[] = [];
  const reachable: string[] = [];
  for (const type of byName.values()) {
    if (type.kind !== 'OBJECT' && type.kind !== 'INTERFACE') continue;
    for (const field of type.fields ?? []) {
      if (!field.name || !(isSensitiveField(field.name) || EXTRA_SENSITIVE.test(field.name))) continue;
      const label = `${type.name}.${field.name}`;
      all.push(label);
      if (reachableTypes.has(type.name!) && type.name !== schema.query) reachable.push(label);
    }
  }
  return { all, reachable };
}

function judge(site: Site, endpoint: Endpoint): FindingDraft | undefined {
  const probe = probeOf(endpoint);
  const answer = site.probes.get(probe.key);
  if (!answer || answer.error || answer.status < 200 || answer.status > 299 || isSoft404(answer, site.notFound)) return undefined;
  const schema = schemaOf(answer.body);
  if (!schema) return undefined;
  const { all, reachable } = sensitiveSchemaFields(schema);
  const types = schema.types.filter((t) => t.name && !t.name.startsWith('__') && t.kind === 'OBJECT').length;
  const fields = all.length > 0 ? ` Sensitive fields exposed: ${all.slice(0, 20).join(', ')}${all.length > 20 ? ', …' : ''}.` : '';
  return {
    url: endpoint.url,
    title: 'GraphQL introspection enabled',
    // On Supabase the schema is public by default and row level security decides what rows come back (the
    // supabase-table-readable check measures that): the exposed schema alone stays medium.
    severity: reachable.length > 0 && endpoint.from !== 'Supabase pg_graphql' ? 'high' : 'medium',
    detail:
      `${endpoint.url} (${endpoint.from}) answers the introspection query without authentication: its whole schema (${types} object types) is public.` +
      fields +
      (reachable.length > 0 ? ` ${reachable.slice(0, 8).join(', ')} can be queried from ${schema.query}.` : ''),
    evidence: {
      request: describeRequest('GET', probe.url, probe.headers ?? {}),
      response: `HTTP ${answer.status}\ncontent-type: ${answer.contentType}\n\n${answer.body.slice(0, 600)}`,
      match: all.length > 0 ? all.slice(0, 40).join('\n') : `__schema with ${types} object types`,
    },
    key: new URL(endpoint.url).pathname,
  };
}

export const graphqlIntrospection = defineCheck({
  id: ID,
  family: 'api',
  title: 'GraphQL introspection enabled',
  severity: 'medium',
  confidence: 'high',
  cwe: 200,
  owasp: 'A02',
  description:
    "Sends GraphQL's introspection query (a read-only query, as GET) to the endpoints the site's code names, the common paths and Supabase's pg_graphql, and reports a public schema with the sensitive types and fields it exposes; high when those fields can be reached from the query root.",
  remediation:
    'Turn introspection off in production (Apollo Server: introspection: false, the default when NODE_ENV=production; GraphQL Yoga: the disableIntrospection plugin; Hasura: disable it for anonymous roles; Supabase pg_graphql: revoke usage on the graphql schema from anon, or comment @graphql({"introspection": false})). More important: require authentication in resolvers of types that hold personal data, and never expose password hashes or tokens as fields.',
  references: [
    'https://www.apollographql.com/docs/apollo-server/api/apollo-server#introspection',
    'https://cheatsheetseries.owasp.org/cheatsheets/GraphQL_Cheat_Sheet.html',
    'https://supabase.com/docs/guides/graphql/security',
  ],
  probes(site) {
    return graphqlEndpoints(site).map(probeOf);
  },
  // pg_graphql of a project confirmed by its GoTrue answer (found only once the first probes came back).
  followUpProbes(site) {
    return unanswered(site, graphqlEndpoints(site).map(probeOf));
  },
  run(site) {
    const findings: FindingDraft[] = [];
    for (const endpoint of graphqlEndpoints(site)) {
      const finding = judge(site, endpoint);
      if (finding) findings.push(finding);
    }
    return findings;
  },
});
