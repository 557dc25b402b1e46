import { excerptAround, exchangeEvidence, mediaType } from '../analysis/probe-answers';
import { defineCheck, type Exchange, type FindingDraft } from '../types';

const ID = 'error-disclosure';
const SCAN_LIMIT = 300_000;

/** Signatures of stack traces, framework debug pages and database errors; each needs content no normal page has. */
export const ERROR_SIGNATURES: ReadonlyArray<{ id: string; label: string; pattern: RegExp }> = [
  {
    id: 'java',
    label: 'Java stack trace',
    pattern: /(?<![\w$.])[a-z][\w$]*(?:\.[\w$]+)+(?:Exception|Error)\b[^\n<]{0,300}(?:\n|<br\s*\/?>|\r)(?:&nbsp;|\s)*at [\w$.<>]+\([\w$]+\.java:\d+\)/,
  },
  { id: 'python', label: 'Python traceback', pattern: /Traceback \(most recent call last\):(?:<br\s*\/?>|\\n|\s)*File &?(?:quot;|")[^"&\n]+(?:&quot;|"), line \d+/ },
  {
    id: 'php',
    label: 'PHP error',
    pattern:
      /<b>(?:Fatal error|Parse error|Warning|Notice|Deprecated)<\/b>:\s+[^<]{1,500} in <b>[^<]+\.php<\/b> on line <b>\d+<\/b>|PHP (?:Fatal error|Parse error|Warning):\s+[^\n]{1,300} in \S+\.php(?: on line |:)\d+/,
  },
  { id: 'php-trace', label: 'PHP stack trace', pattern: /Stack trace:[ \t\r]*(?:<br\s*\/?>|\\n|\n)\s*#0 [^\n<]{0,300}\.php\(\d+\)/ },
  { id: 'express', label: 'Express error page', pattern: /<pre>(?:[A-Z]\w*)?Error: [^<]{1,300}<br>(?: &nbsp;)+at (?:[^<()]{1,200}\()?\/[^<)]+:\d+:\d+/ },
  {
    id: 'node',
    label: 'Node.js stack trace',
    pattern:
      /\b(?:[A-Z]\w*Error|Error)(?:\s*\[[A-Z_]+\])?: [^\n<]{1,300}(?:\n|\\n|<br\s*\/?>)(?:\s|&nbsp;)*at (?:[\w$.<>[\] ]+ \()?(?:\/|[A-Z]:\\|file:\/\/|node:internal)[^\s)]*:\d+:\d+\)?/,
  },
  {
    id: 'dotnet',
    label: 'ASP.NET error page',
    pattern: /Server Error in '[^']*' Application|\[[A-Z]\w+Exception: [^\]]{1,300}\][ \t]*\r?\n\s*[\w.]+\(|\bat [\w.`<>]+\([^)]*\) in [A-Za-z]:\\[^\n:]+\.cs:line \d+/,
  },
  { id: 'ruby', label: 'Ruby backtrace', pattern: /(?<![\w./-])[\w./-]+\.rb:\d+:in [`'][^'\n]{1,200}'/ },
  { id: 'rails', label: 'Rails debug page', pattern: /Action Controller: Exception caught|<h1>Routing Error<\/h1>[\s\S]{0,2000}Rails\.root:/ },
  { id: 'go', label: 'Go panic', pattern: /panic: [^\n]{1,300}\n+goroutine \d+ \[[a-z ]+\]:/ },
  { id: 'django', label: 'Django debug page', pattern: /You're seeing this error because you have <code>DEBUG = True<\/code>|<th>Django Version:<\/th>/ },
  {
    id: 'laravel',
    label: 'Laravel debug page',
    pattern: /Illuminate\\(?:Database|Foundation|Routing|View)\\[\w\\]+(?:Exception|Error)|laravel[-_]ignition|Whoops! There was an error\./i,
  },
  { id: 'werkzeug', label: 'Werkzeug debugger', pattern: /The debugger caught an exception in your WSGI application|<title>[^<]*\/\/ Werkzeug Debugger<\/title>/ },
  {
    id: 'nextjs',
    label: 'Next.js development error',
    pattern: /"err"\s*:\s*\{[^{}]{0,300}"stack"\s*:\s*"[^"]{0,200}(?:Error|at )|<nextjs-portal|id="__next_error__"[\s\S]{0,200}"digest"/,
  },
  {
    id: 'sql',
    label: 'SQL error message',
    pattern:
      /You have an error in your SQL syntax|Warning: (?:mysql|mysqli|pg|sqlite|oci|mssql)_\w+\(|ORA-\d{5}: [A-Za-z]|PG::\w+Error|SQLSTATE\[[0-9A-Z]{5}\]|Unclosed quotation mark after the character string|Microsoft OLE DB Provider for (?:SQL Server|ODBC)|SQLite3?::(?:SQL)?Exception|(?:ERROR|error): +syntax error at or near "|org\.postgresql\.util\.PSQLException|com\.mysql\.jdbc\.exceptions|pg_query\(\): Query failed/,
  },
];

/** The first signature found in a body, with its position. */
export function findErrorSignature(body: string): { id: string; label: string; index: number; text: string } | undefined {
  const text = body.slice(0, SCAN_LIMIT);
  for (const signature of ERROR_SIGNATURES) {
    const match = signature.pattern.exec(text);
    if (match) return { id: signature.id, label: signature.label, index: match.index, text: match[0] };
  }
  return undefined;
}

function scannable(exchange: Exchange): boolean {
  if (exchange.error || !exchange.body) return false;
  const type = mediaType(exchange);
  // Scripts and styles carry error-page templates and test strings; only documents and API answers count.
  return !/javascript|ecmascript|css|image\/|font\/|octet-stream|zip|gzip|wasm/.test(type);
}

export const errorDisclosure = defineCheck({
  id: ID,
  family: 'disclosure',
  title: 'Error details or stack trace disclosed',
  severity: 'medium',
  confidence: 'medium',
  cwe: 209,
  owasp: 'A10',
  description:
    'Looks for stack traces (Java, Python, PHP, Node.js, .NET, Ruby, Go), framework debug pages (Django, Laravel, Rails, Werkzeug, Express, Next.js) and database error messages in every page and probe answer.',
  remediation: 'Turn off debug mode in production (DEBUG=False, APP_DEBUG=false, NODE_ENV=production), return generic error pages, and log details on the server only.',
  references: ['https://cwe.mitre.org/data/definitions/209.html', 'https://www.zaproxy.org/docs/alerts/90022/', 'https://owasp.org/www-community/Improper_Error_Handling'],
  run(site) {
    const findings: FindingDraft[] = [];
    const seen = new Set<string>();
    const exchanges: Exchange[] = [site.root, ...site.pages.map((page) => page.exchange), ...(site.notFound ? [site.notFound] : []), ...site.probes.values()];
    for (const exchange of exchanges) {
      if (!scannable(exchange)) continue;
      const hit = findErrorSignature(exchange.body);
      if (!hit) continue;
      const key = `${exchange.finalUrl}|${hit.id}`;
      if (seen.has(key)) continue;
      seen.add(key);
      findings.push({
        url: exchange.finalUrl,
        key: hit.id,
        detail: `The response to ${new URL(exchange.url).pathname} contains a ${hit.label}, which reveals internal paths, code structure and software versions.`,
        evidence: exchangeEvidence(exchange, hit.text.slice(0, 500), { excerpt: excerptAround(exchange.body, hit.index) }),
      });
    }
    return findings;
  },
});
