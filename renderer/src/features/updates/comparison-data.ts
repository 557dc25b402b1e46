// The competitor comparison on /updates/vibe-competitors-comparison. Sources: each vendor's public documentation
// as of November 2026, unverified. Where a capability is not documented we say No (or Partial when it is only
// described in general terms), never Yes.

export const TOOLS = [
  { id: 'vibeeval', name: 'vibeeval' },
  { id: 'zap', name: 'OWASP ZAP' },
  { id: 'observatory', name: 'MDN HTTP Observatory' },
  { id: 'nuclei', name: 'Nuclei' },
  { id: 'burp', name: 'Burp Suite Professional' },
  { id: 'snyk', name: 'Snyk' },
  { id: 'vibeappscanner', name: 'VibeAppScanner' },
  { id: 'fixvibe', name: 'FixVibe' },
  { id: 'vibearmor', name: 'VibeArmor' },
  { id: 'securisky', name: 'SecuriSky' },
  { id: 'lovable', name: 'Lovable Security Scan' },
] as const;

export type ToolId = (typeof TOOLS)[number]['id'];
export type Support = 'yes' | 'partial' | 'no';

export const CATEGORIES = [
  { id: 'all', label: 'All' },
  { id: 'security', label: 'Security' },
  { id: 'integration', label: 'Integration' },
  { id: 'usability', label: 'Usability' },
] as const;

export type CategoryFilter = (typeof CATEGORIES)[number]['id'];
export type Category = Exclude<CategoryFilter, 'all'>;

export interface Feature {
  name: string;
  category: Category;
  support: Record<ToolId, Support>;
}

const Y = 'yes';
const P = 'partial';
const N = 'no';

/** One row: the values in the order of TOOLS. */
function row(name: string, category: Category, values: readonly Support[]): Feature {
  if (values.length !== TOOLS.length) throw new Error(`${name}: ${values.length} values for ${TOOLS.length} tools`);
  const support = Object.fromEntries(TOOLS.map((tool, index) => [tool.id, values[index]])) as Record<ToolId, Support>;
  return { name, category, support };
}

// Columns:                                      vibeeval ZAP Obs Nuclei Burp Snyk VAS FixVibe VibeArmor SecuriSky Lovable
export const FEATURES: readonly Feature[] = [
  row('Security headers (CSP, HSTS, X-Frame-Options)', 'security', [Y, Y, Y, Y, Y, N, P, P, P, P, N]),
  row('Header score and grade (HTTP Observatory-compatible)', 'security', [Y, N, Y, N, N, N, N, N, P, N, N]),
  row('Cookie flags (Secure, HttpOnly, SameSite)', 'security', [Y, Y, Y, P, Y, N, P, P, P, P, N]),
  row('Exposed files (.env, .git, source maps)', 'security', [Y, P, N, Y, P, N, P, P, P, P, N]),
  row('AI-tool files (CLAUDE.md, AGENTS.md, .cursor/rules)', 'security', [Y, N, N, Y, N, N, N, N, N, N, N]),
  row('Secrets in client-side JavaScript', 'security', [Y, N, N, P, P, P, P, P, P, P, P]),
  row('Supabase RLS / anon-key table exposure', 'security', [Y, N, N, N, N, N, P, P, P, P, Y]),
  row('Vulnerable JavaScript libraries', 'security', [Y, Y, N, P, Y, Y, N, N, N, N, Y]),
  row('Active attack probes (XSS, injection)', 'security', [P, Y, N, Y, Y, N, N, P, N, N, N]),
  row('Source code and dependency scanning (SAST/SCA)', 'security', [N, N, N, P, N, Y, N, N, N, N, Y]),
  row('CLI for CI with a failure threshold', 'integration', [Y, Y, P, P, N, Y, N, N, N, N, N]),
  row('SARIF output', 'integration', [Y, P, N, Y, N, Y, N, N, N, N, N]),
  row('REST API', 'integration', [Y, Y, Y, N, Y, Y, N, Y, N, N, N]),
  row('MCP endpoint for AI agents', 'integration', [Y, N, N, N, P, P, Y, Y, N, N, N]),
  row('Webhooks', 'integration', [Y, N, N, P, N, Y, N, Y, N, N, N]),
  row('Desktop app', 'usability', [Y, Y, N, N, Y, N, N, N, N, N, N]),
  row('Web interface', 'usability', [Y, N, Y, N, N, Y, Y, Y, Y, Y, Y]),
  row('Runs locally without a cloud account', 'usability', [Y, Y, P, Y, Y, N, N, N, N, N, N]),
  row('Request and response evidence per finding', 'usability', [Y, Y, P, Y, Y, N, N, N, N, N, N]),
  row('Renders single-page apps in a real browser', 'usability', [Y, Y, N, P, Y, N, N, N, N, N, N]),
];

/** What each cell says, as text (cells never rely on colour alone). */
export const SUPPORT_LABELS: Record<Support, string> = { yes: 'Yes', partial: 'Partial', no: 'No' };

export type SortDirection = 'none' | 'ascending' | 'descending';

/** The rows of a category whose name contains the query (case-insensitive, surrounding spaces ignored). */
export function filterFeatures(features: readonly Feature[], category: CategoryFilter, query: string): Feature[] {
  const needle = query.trim().toLocaleLowerCase('en');
  return features.filter((feature) => (category === 'all' || feature.category === category) && feature.name.toLocaleLowerCase('en').includes(needle));
}

/** Rows by feature name; 'none' keeps the table's own order (grouped by category). */
export function sortFeatures(features: readonly Feature[], direction: SortDirection): Feature[] {
  if (direction === 'none') return [...features];
  const sorted = [...features].sort((a, b) => a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }));
  return direction === 'descending' ? sorted.reverse() : sorted;
}

/** Unsorted and descending go to ascending; ascending goes to descending. */
export const nextSort = (direction: SortDirection): SortDirection => (direction === 'ascending' ? 'descending' : 'ascending');

/** Footnotes under the table: the ratings that need a sentence. */
export const COMPARISON_NOTES: readonly string[] = [
  'vibeeval: active probes are opt-in and limited to a harmless reflected-XSS marker and an open-redirect check; API keys (the /v1 API), signed webhooks and an MCP endpoint for AI agents are included; vulnerable libraries are found in the deployed bundles, not in your package manifest.',
  'OWASP ZAP: the baseline scan runs about 30 passive rules, including Retire.js-based vulnerable library detection; exposed files need the active scan; PDF and SARIF reports need an add-on.',
  'MDN HTTP Observatory: ten tests of response headers (including cookies and CORS) with a score and grade; it does not look at page content or scripts.',
  'Nuclei: about 11,500 community templates, including exposure templates for CLAUDE.md, .cursor/rules and AGENTS.md; what runs depends on the templates you choose.',
  'Burp Suite Professional: manual and automated testing in a desktop app, extensible with BApp extensions; CI scanning is a separate product.',
  'Snyk: scans source code and dependencies (SAST and SCA) in your repository and CI; it is not an external URL scanner.',
  'VibeAppScanner advertises 150+ checks and a remote MCP endpoint; FixVibe offers /api/v1, MCP and webhooks, with active probes only on paid plans and verified domains; VibeArmor advertises 100 checks in 2–3 minutes with an A+ to F grade; SecuriSky advertises 27 checks in 6 categories in under 60 seconds.',
  'Lovable Security Scan: checks on the code and database side (RLS policies, schema, npm audit), with a deeper scan by an AI agent; we found no documented checks of the deployed site from outside.',
];
