import { describe, expect, it } from 'vitest';
import { fakeSupabaseKey } from '../testing/fake-keys';
import { makeSite, plannedProbes, type ExchangeInit } from '../testing/site';
import { graphqlIntrospection, INTROSPECTION_QUERY, schemaOf, sensitiveSchemaFields } from './graphql-introspection';

const ORIGIN = 'https://shop.example.com';
const field = (name: string, type: string, kind = 'SCALAR') => ({ name, type: { kind: 'NON_NULL', name: null, ofType: { kind, name: type, ofType: null } } });
const list = (name: string, type: string) => ({ name, type: { kind: 'LIST', name: null, ofType: { kind: 'NON_NULL', name: null, ofType: { kind: 'OBJECT', name: type } } } });
/** A schema as graphql-js answers the introspection query. */
const schema = (types: unknown[]) =>
  JSON.stringify({ data: { __schema: { queryType: { name: 'Query' }, types: [...types, { kind: 'OBJECT', name: '__Type', fields: [field('name', 'String')] }] } } });
const USER = { kind: 'OBJECT', name: 'User', fields: [field('id', 'ID'), field('email', 'String'), field('password', 'String')] };
const AUDIT = { kind: 'OBJECT', name: 'AuditEntry', fields: [field('id', 'ID'), field('apiKey', 'String')] };
const PRODUCT = { kind: 'OBJECT', name: 'Product', fields: [field('id', 'ID'), field('title', 'String')] };
const keyOf = (url: string) => `graphql-introspection:${url}`;
const answer = (url: string, body: string, init: Partial<ExchangeInit> = {}): Record<string, ExchangeInit> => ({
  [keyOf(url)]: { url: `${url}?query=${encodeURIComponent(INTROSPECTION_QUERY)}`, body, contentType: 'application/json', ...init },
});
const siteWith = (probes: Record<string, ExchangeInit> = {}, bundle = 'new ApolloClient({uri:"/api/gql",cache:new InMemoryCache()})') =>
  makeSite({ root: { url: `${ORIGIN}/`, body: '<div id="app"></div><script src="/assets/app.js"></script>' }, assets: [{ url: `${ORIGIN}/assets/app.js`, body: bundle }], probes });

describe('graphql-introspection', () => {
  it('sends only the introspection query, as GET, never a mutation', () => {
    expect(INTROSPECTION_QUERY).not.toMatch(/mutation/i);
    expect(INTROSPECTION_QUERY).toMatch(/^query /);
    const probes = plannedProbes(graphqlIntrospection, siteWith());
    expect(probes.every((p) => p.method === 'GET' && !p.body)).toBe(true);
    expect(probes.every((p) => decodeURIComponent(p.url.split('?query=')[1]!) === INTROSPECTION_QUERY)).toBe(true);
    expect(probes.map((p) => p.url.split('?')[0])).toEqual([`${ORIGIN}/api/gql`, `${ORIGIN}/graphql`, `${ORIGIN}/api/graphql`, `${ORIGIN}/v1/graphql`, `${ORIGIN}/query`]);
  });

  it("asks Supabase's pg_graphql with the bundle's public key", () => {
    const ref = 'abcdefghijklmnopqrst';
    const anon = fakeSupabaseKey(ref, 'anon');
    const site = siteWith({}, `createClient("https://${ref}.supabase.co","${anon}")`);
    const probe = plannedProbes(graphqlIntrospection, site).find((p) => p.url.startsWith(`https://${ref}.supabase.co/graphql/v1?query=`));
    expect(probe?.headers).toMatchObject({ apikey: anon, Authorization: `Bearer ${anon}` });
    const body = schema([{ kind: 'OBJECT', name: 'Query', fields: [field('profiles', 'User', 'OBJECT')] }, USER]);
    const answered = siteWith(
      { [keyOf(`https://${ref}.supabase.co/graphql/v1`)]: { url: probe!.url, body, contentType: 'application/json' } },
      `createClient("https://${ref}.supabase.co","${anon}")`,
    );
    const [finding] = graphqlIntrospection.run(answered);
    expect(finding).toMatchObject({ url: `https://${ref}.supabase.co/graphql/v1`, severity: 'medium' });
    expect(finding!.evidence.request).not.toContain(anon);
  });

  it('finds sensitive fields, and which of them the query root reaches', () => {
    const query = { kind: 'OBJECT', name: 'Query', fields: [list('users', 'User'), list('products', 'Product')] };
    const parsed = schemaOf(schema([query, USER, AUDIT, PRODUCT]))!;
    expect(sensitiveSchemaFields(parsed)).toEqual({ all: ['User.email', 'User.password', 'AuditEntry.apiKey'], reachable: ['User.email', 'User.password'] });
  });

  const clean: Record<string, Record<string, ExchangeInit>> = {
    'no answers': {},
    'introspection disabled (Apollo)': answer(`${ORIGIN}/graphql`, JSON.stringify({ errors: [{ message: 'GraphQL introspection is not allowed by Apollo Server' }] }), {
      status: 400,
    }),
    'introspection disabled with 200 and errors': answer(`${ORIGIN}/graphql`, JSON.stringify({ errors: [{ message: 'introspection disabled' }], data: null })),
    'the SPA shell': answer(`${ORIGIN}/graphql`, '<!doctype html><div id="app"></div>', { contentType: 'text/html' }),
    'a 404': answer(`${ORIGIN}/query`, 'Not found', { status: 404, contentType: 'text/plain' }),
  };
  it.each(Object.entries(clean))('no finding: %s', (_name, probes) => {
    expect(graphqlIntrospection.run(siteWith(probes))).toEqual([]);
  });

  it('medium when the schema is public, high when sensitive fields hang off Query', () => {
    const open = graphqlIntrospection.run(
      siteWith(answer(`${ORIGIN}/graphql`, schema([{ kind: 'OBJECT', name: 'Query', fields: [list('products', 'Product')] }, PRODUCT, AUDIT]))),
    );
    expect(open.map((f) => [f.url, f.severity])).toEqual([[`${ORIGIN}/graphql`, 'medium']]);
    expect(open[0]!.detail).toContain('Sensitive fields exposed: AuditEntry.apiKey.');
    const reachable = graphqlIntrospection.run(siteWith(answer(`${ORIGIN}/api/gql`, schema([{ kind: 'OBJECT', name: 'Query', fields: [field('me', 'User', 'OBJECT')] }, USER]))));
    expect(reachable.map((f) => [f.url, f.severity])).toEqual([[`${ORIGIN}/api/gql`, 'high']]);
    expect(reachable[0]!.evidence.match).toBe('User.email\nUser.password');
    expect(reachable[0]!.detail).toContain('User.email, User.password can be queried from Query');
  });
});
