import { describe, expect, it } from 'vitest';
import { makeSite, plannedProbes, type ExchangeInit } from '../testing/site';
import { exposedAiToolFiles } from './exposed-ai-tool-files';

const ORIGIN = 'https://app.example';
const SPA = '<!doctype html><html><body><div id="root"></div></body></html>';
const site = (probes: Record<string, ExchangeInit>) => makeSite({ root: { url: `${ORIGIN}/`, body: SPA }, notFound: { url: `${ORIGIN}/vibeeval-1-404.txt`, body: SPA }, probes });
const probe = (path: string, body: string, extra: Partial<ExchangeInit> = {}) => ({
  [`exposed-ai-tool-files:${path}`]: { url: `${ORIGIN}${path}`, body, contentType: 'text/markdown', ...extra },
});
const CLAUDE =
  '# Project\n\nYou are working on the billing app.\n\n## Rules\n- Always run `npm test` before committing\n- Never edit migrations\n- The admin API lives at https://admin.app.example/api/internal\n';

describe('exposed-ai-tool-files', () => {
  it('probes the known AI tool files', () => {
    const urls = plannedProbes(exposedAiToolFiles, site({})).map((p) => p.url);
    expect(urls).toEqual(expect.arrayContaining([`${ORIGIN}/CLAUDE.md`, `${ORIGIN}/AGENTS.md`, `${ORIGIN}/.cursorrules`, `${ORIGIN}/.cursor/mcp.json`, `${ORIGIN}/llms.txt`]));
  });

  it.each([
    ['SPA shell', probe('/CLAUDE.md', SPA, { contentType: 'text/html' })],
    ['short text', probe('/AGENTS.md', 'ok')],
    ['JSON without MCP servers', probe('/.mcp.json', '{"name":"x"}', { contentType: 'application/json' })],
  ])('no finding: %s', (_name, probes) => {
    expect(exposedAiToolFiles.run(site(probes))).toEqual([]);
  });

  it('reports instruction files, internal references and MCP tokens', () => {
    const findings = exposedAiToolFiles.run(
      site({
        ...probe('/CLAUDE.md', CLAUDE),
        ...probe('/.cursorrules', 'Rules for this codebase:\n- use TypeScript\n- always write tests\n'),
        ...probe('/.cursor/mcp.json', JSON.stringify({ mcpServers: { github: { command: 'npx', env: { GITHUB_TOKEN: 'ghp_abcdefghijklmnopqrstuvwxyz0123456789' } } } }), {
          contentType: 'application/json',
        }),
        ...probe('/llms.txt', '# App\n\n> A billing app.\n\n- [Docs](https://app.example/docs)\n', { contentType: 'text/plain' }),
      }),
    );
    expect(Object.fromEntries(findings.map((f) => [f.key, f.severity]))).toEqual({
      '/CLAUDE.md': 'medium',
      '/.cursorrules': 'low',
      '/.cursor/mcp.json': 'high',
      '/llms.txt': 'info',
    });
    expect(JSON.stringify(findings)).not.toContain('ghp_abcdefghijklmnopqrstuvwxyz0123456789');
  });
});
