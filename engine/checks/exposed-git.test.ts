import { describe, expect, it } from 'vitest';
import { makeSite, type ExchangeInit } from '../testing/site';
import { exposedGit } from './exposed-git';

const ORIGIN = 'https://app.example';
const SPA = '<!doctype html><html><body><div id="root"></div></body></html>';
const site = (probes: Record<string, ExchangeInit>) => makeSite({ root: { url: `${ORIGIN}/`, body: SPA }, notFound: { url: `${ORIGIN}/vibeeval-1-404.txt`, body: SPA }, probes });
const head = (body: string, extra: Partial<ExchangeInit> = {}) => ({ 'exposed-git:/.git/HEAD': { url: `${ORIGIN}/.git/HEAD`, body, contentType: 'text/plain', ...extra } });
const config = (body: string) => ({ 'exposed-git:/.git/config': { url: `${ORIGIN}/.git/config`, body, contentType: 'text/plain' } });

describe('exposed-git', () => {
  it.each([
    ['SPA shell', head(SPA, { contentType: 'text/html' })],
    ['403', head('ref: refs/heads/main\n', { status: 403 })],
    ['text mentioning refs', head('See ref: refs/heads/main in our docs for details about branches.')],
    ['config-like text without git keys', config('[core]\nname = x\n')],
  ])('no finding: %s', (_name, probes) => {
    expect(exposedGit.run(site(probes))).toEqual([]);
  });

  it('reports HEAD and says the source can be reconstructed', () => {
    const [finding] = exposedGit.run(site(head('ref: refs/heads/main\n')));
    expect(finding?.severity).toBe('high');
    expect(finding?.detail).toMatch(/reconstruct/);
  });

  it('reports config with credentials in the remote as critical, masked', () => {
    const findings = exposedGit.run(
      site({
        ...head('ref: refs/heads/main\n'),
        ...config(
          '[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n[remote "origin"]\n\turl = https://dev:ghp_abcdefghijklmnopqrstuvwxyz0123456789@github.com/acme/app.git\n',
        ),
      }),
    );
    expect(findings).toHaveLength(1);
    expect(findings[0]?.severity).toBe('critical');
    expect(JSON.stringify(findings[0])).not.toContain('ghp_abcdefghijklmnopqrstuvwxyz0123456789');
  });
});
