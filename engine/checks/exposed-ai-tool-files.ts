import { exchangeEvidence, KNOWN_TOKEN, looksLikeHtmlDocument, looksLikeSecretValue, pathProbes, usableAnswers } from '../analysis/probe-answers';
import { defineCheck, type FindingDraft, type Severity } from '../types';

const ID = 'exposed-ai-tool-files';

type Format = 'markdown' | 'yaml' | 'mcp' | 'llms';

/** Instruction and configuration files of AI coding tools, which end up in the web root when a project is deployed as is. */
export const AI_FILES: ReadonlyArray<{ path: string; tool: string; format: Format }> = [
  { path: '/CLAUDE.md', tool: 'Claude Code', format: 'markdown' },
  { path: '/AGENTS.md', tool: 'Codex / AGENTS.md agents', format: 'markdown' },
  { path: '/GEMINI.md', tool: 'Gemini CLI', format: 'markdown' },
  { path: '/.cursorrules', tool: 'Cursor', format: 'markdown' },
  { path: '/.cursor/rules', tool: 'Cursor', format: 'markdown' },
  { path: '/.windsurfrules', tool: 'Windsurf', format: 'markdown' },
  { path: '/.clinerules', tool: 'Cline', format: 'markdown' },
  { path: '/.github/copilot-instructions.md', tool: 'GitHub Copilot', format: 'markdown' },
  { path: '/.aider.conf.yml', tool: 'Aider', format: 'yaml' },
  { path: '/.mcp.json', tool: 'MCP (Claude Code)', format: 'mcp' },
  { path: '/.cursor/mcp.json', tool: 'MCP (Cursor)', format: 'mcp' },
  { path: '/.vscode/mcp.json', tool: 'MCP (VS Code)', format: 'mcp' },
  { path: '/llms.txt', tool: 'llms.txt', format: 'llms' },
];

const INSTRUCTION_WORDS =
  /\b(?:you are|you must|always|never|do not|don't|rules?|instructions?|guidelines?|conventions?|architecture|project|codebase|tests?|build|lint|npm|pnpm|yarn|bun|typescript|react|component|supabase|api|database|commit)\b/gi;

/** True for agent instructions in Markdown or plain text: headings or bullets plus typical instruction vocabulary. */
export function isInstructionText(body: string): boolean {
  const text = body.slice(0, 50_000);
  if (text.trim().length < 40 || looksLikeHtmlDocument(text) || text.trimStart().startsWith('{')) return false;
  const headings = (text.match(/^#{1,6}\s+\S/gm) ?? []).length;
  const bullets = (text.match(/^[ \t]*(?:[-*+]|\d+\.)[ \t]+\S/gm) ?? []).length;
  const words = new Set((text.match(INSTRUCTION_WORDS) ?? []).map((word) => word.toLowerCase()));
  return (headings > 0 || bullets >= 2) && words.size >= 2;
}

function isAiderConfig(body: string): boolean {
  return (
    !looksLikeHtmlDocument(body) &&
    /^[ \t]*(?:model|weak-model|editor-model|auto-commits|read|edit-format|openai-api-key|anthropic-api-key|api-key|dark-mode|gitignore|lint-cmd|test-cmd)[ \t]*:/m.test(body)
  );
}

function mcpServers(body: string): Record<string, unknown> | undefined {
  try {
    const json = JSON.parse(body) as { mcpServers?: unknown; servers?: unknown };
    const servers = json.mcpServers ?? json.servers;
    return servers && typeof servers === 'object' && !Array.isArray(servers) ? (servers as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Credentials in the file: known token formats, or secret-named keys with real-looking values. */
function credentialLines(body: string): string[] {
  const lines = body.slice(0, 100_000).split(/\r?\n/);
  return lines.filter((line) => {
    if (KNOWN_TOKEN.test(line)) return true;
    const pair = /["']?(?<![\w.-])([A-Za-z_][\w.-]{0,100})["']?\s*[:=]\s*["']?([^"'\s,]+)/.exec(line);
    return Boolean(pair && looksLikeSecretValue(pair[2]!, pair[1]));
  });
}

/** URLs or hosts that point at infrastructure rather than public documentation. */
function internalReferences(body: string): string[] {
  const found = new Set<string>();
  const patterns = [
    /\bhttps?:\/\/(?:localhost|127\.0\.0\.1|10\.\d{1,3}\.\d{1,3}\.\d{1,3}|192\.168\.\d{1,3}\.\d{1,3}|172\.(?:1[6-9]|2\d|3[01])\.\d{1,3}\.\d{1,3})(?::\d{1,5})?[^\s)"'`]*/g,
    /\bhttps?:\/\/[a-z0-9.-]+\.(?:supabase\.co|internal|corp|local|lan)\b[^\s)"'`]*/gi,
    /\bhttps?:\/\/(?:staging|stage|dev|admin|internal|api)[.-][a-z0-9][^\s)"'`]*/gi,
    /(?<![\w/])\/(?:api|admin|internal)\/[\w/-]+/g,
  ];
  for (const pattern of patterns) for (const match of body.slice(0, 100_000).matchAll(pattern)) if (found.size < 10) found.add(match[0]);
  return [...found];
}

export const exposedAiToolFiles = defineCheck({
  id: ID,
  family: 'exposed-files',
  title: 'AI coding tool files exposed',
  severity: 'low',
  confidence: 'high',
  cwe: 538,
  owasp: 'A02',
  description:
    'Requests instruction and configuration files of AI coding tools (CLAUDE.md, AGENTS.md, .cursorrules, copilot-instructions.md, .mcp.json, …) and reports those served publicly.',
  remediation:
    'Deploy only the build output, not the project root, or deny these paths in the hosting configuration. MCP configs often hold API tokens: rotate them if the file was public. llms.txt is meant to be public; just check it says nothing internal.',
  references: ['https://cwe.mitre.org/data/definitions/538.html', 'https://llmstxt.org/', 'https://modelcontextprotocol.io/quickstart/user'],
  probes: (site) =>
    pathProbes(
      ID,
      site,
      AI_FILES.map(({ path }) => path),
    ),
  run(site) {
    const findings: FindingDraft[] = [];
    for (const { path, answer } of usableAnswers(
      site,
      ID,
      AI_FILES.map((file) => file.path),
    )) {
      const file = AI_FILES.find((candidate) => candidate.path === path)!;
      const body = answer.body;
      let proven = false;
      let proof = '';
      if (file.format === 'markdown') {
        proven = isInstructionText(body);
        proof = (/^#{1,6}\s+[^\n]*/m.exec(body)?.[0] ?? body.trim().split('\n')[0] ?? '').slice(0, 200);
      } else if (file.format === 'llms') {
        proven = /^#\s+\S/.test(body.trimStart()) && !looksLikeHtmlDocument(body);
        proof = body.trimStart().split('\n')[0]!.slice(0, 200);
      } else if (file.format === 'yaml') {
        proven = isAiderConfig(body);
        proof = (/^[ \t]*[a-z-]+[ \t]*:[^\n]*/m.exec(body)?.[0] ?? '').slice(0, 200);
      } else {
        const servers = mcpServers(body);
        proven = Boolean(servers);
        proof = servers ? `MCP servers: ${Object.keys(servers).slice(0, 10).join(', ')}` : '';
      }
      if (!proven) continue;
      const credentials = credentialLines(body);
      const internal = file.format === 'llms' ? [] : internalReferences(body);
      let severity: Severity;
      if (file.format === 'llms') severity = credentials.length > 0 ? 'high' : 'info';
      else if (credentials.length > 0) severity = 'high';
      else if (file.format === 'mcp' || internal.length > 0) severity = 'medium';
      else severity = 'low';
      const detail =
        file.format === 'llms'
          ? `${path} is published (it is meant to be public for AI crawlers).` + (credentials.length > 0 ? ' It contains credential-like values, which should not be there.' : '')
          : `${path} (${file.tool}) is publicly readable. Agent instructions and tool configs describe the architecture, conventions, internal endpoints and sometimes credentials of the project.` +
            (credentials.length > 0 ? ` It contains ${credentials.length} credential-like line${credentials.length === 1 ? '' : 's'}; rotate them.` : '') +
            (internal.length > 0 ? ` Internal references: ${internal.slice(0, 5).join(', ')}.` : '');
      findings.push({ url: answer.url, key: path, severity, detail, evidence: exchangeEvidence(answer, credentials[0] ?? proof) });
    }
    return findings;
  },
});
