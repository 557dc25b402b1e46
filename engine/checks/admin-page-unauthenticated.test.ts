import { describe, expect, it } from 'vitest';
import { makeSite, plannedProbes, type ExchangeInit } from '../testing/site';
import { adminContent, adminPageUnauthenticated, guardedAdminRoutes } from './admin-page-unauthenticated';

const ORIGIN = 'https://app.example.com';
const SHELL = '<!doctype html><html><head><title>App</title></head><body><div id="root"></div><script type="module" src="/assets/index.js"></script></body></html>';
const GUARDED =
  'function ProtectedRoute({children}){const{user}=useAuth();return user?children:jsx(Navigate,{to:"/login"})}routes=[{path:"/admin",element:jsx(ProtectedRoute,{children:jsx(Admin,{})})},{path:"/about"}]';
const ADMIN_HTML = `<!doctype html><html><body><h1>Admin · Users</h1><table><tr><th>Email</th><th>Role</th></tr>
<tr><td>ada@example.com</td><td>admin</td></tr><tr><td>bob@example.com</td><td>user</td></tr></table></body></html>`;
const page = (body: string, init: Partial<ExchangeInit> = {}): Record<string, ExchangeInit> => ({ 'admin-page-unauthenticated:/admin': { url: `${ORIGIN}/admin`, body, ...init } });
const siteWith = (probes: Record<string, ExchangeInit> = {}, bundle = GUARDED) =>
  makeSite({
    root: { url: `${ORIGIN}/`, body: SHELL },
    assets: [{ url: `${ORIGIN}/assets/index.js`, body: bundle }],
    notFound: { url: `${ORIGIN}/nope-404`, body: SHELL },
    probes,
  });

describe('admin-page-unauthenticated', () => {
  it('probes only admin routes the code guards', () => {
    expect(guardedAdminRoutes(siteWith())).toEqual(['/admin']);
    expect(plannedProbes(adminPageUnauthenticated, siteWith())).toEqual([{ key: 'admin-page-unauthenticated:/admin', method: 'GET', url: `${ORIGIN}/admin` }]);
    // No guard anywhere: the route may be public by design.
    expect(guardedAdminRoutes(siteWith({}, 'routes=[{path:"/admin"}]'))).toEqual([]);
    expect(guardedAdminRoutes(siteWith({}, `${GUARDED};fetch("/admin/delete-all")`))).toEqual(['/admin']);
    expect(guardedAdminRoutes(siteWith({}, 'self.__BUILD_MANIFEST={"/dashboard":["a.js"],"/blog":["b.js"]};getServerSession()'))).toEqual(['/dashboard']);
  });

  const clean: Record<string, Record<string, ExchangeInit>> = {
    'no answer': {},
    'the SPA shell (same as every route)': page(SHELL),
    'a redirect to the login page': page('<h1>Sign in</h1><form><input type="password"></form>', {
      finalUrl: `${ORIGIN}/login`,
      redirects: [{ url: `${ORIGIN}/admin`, status: 307, location: '/login', headers: [] }],
    }),
    '401': page('<h1>Admin</h1><p>Unauthorized</p>', { status: 401 }),
    'a login form at the admin path': page('<h1>Admin sign in</h1><form><input name="email"><input type="password" name="pw"></form>'),
    'an admin heading without any data': page('<h1>Admin</h1><p>Loading…</p><div id="root"></div>'),
  };
  it.each(Object.entries(clean))('no finding: %s', (_name, probes) => {
    expect(adminPageUnauthenticated.run(siteWith(probes))).toEqual([]);
  });

  it('reports server-rendered admin content, emails masked', () => {
    const findings = adminPageUnauthenticated.run(siteWith(page(ADMIN_HTML)));
    expect(findings.map((f) => [f.url, f.title])).toEqual([[`${ORIGIN}/admin`, 'Admin page /admin renders without signing in']]);
    expect(findings[0]!.detail).toContain('"Admin · Users" (2 table rows, 2 email addresses)');
    expect(findings[0]!.evidence.response).toContain('a***@example.com');
    expect(JSON.stringify(findings)).not.toContain('ada@example.com');
    expect(findings[0]!.evidence.response).toContain('<td>a***');
    expect(findings[0]!.evidence.response).not.toContain('>admin</td>');
  });

  it('adminContent needs a heading and a table of records or several emails', () => {
    expect(adminContent(ADMIN_HTML)).toMatchObject({ heading: 'Admin · Users', rows: 3 });
    expect(adminContent('<h2>Dashboard</h2><ul><li>a@example.com</li><li>b@example.com</li></ul>')?.emails).toHaveLength(2);
    expect(adminContent('<h2>Our users love us</h2><p>Contact: hello@example.com</p>')).toBeUndefined();
  });
});
