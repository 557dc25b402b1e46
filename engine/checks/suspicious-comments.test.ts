import { describe, expect, it } from 'vitest';
import { makeSite } from '../testing/site';
import { judgeComment, suspiciousComments } from './suspicious-comments';

describe('suspicious-comments', () => {
  it.each([
    ['plain TODO', 'TODO: make the header sticky'],
    ['licence banner', '! jQuery v3.7.1 | (c) OpenJS Foundation'],
    ['placeholder password', 'password: changeme'],
    ['layout note', 'main navigation starts here'],
  ])('ignores %s', (_name, comment) => {
    expect(judgeComment(comment, { html: true })).toBeUndefined();
  });

  it.each([
    ['credential', 'admin login: password=Winter2024!x', 'low'],
    ['known token', 'old key sk_live_4eC39HqLyjWDarjtT1zdp7dc', 'low'],
    ['security TODO', 'TODO: re-enable auth check before launch', 'info'],
    ['private IP', 'api proxied to 10.0.3.17:8080', 'info'],
    ['hidden admin link', '<a href="/admin-panel">Admin</a>', 'info'],
  ])('flags %s', (_name, comment, severity) => {
    expect(judgeComment(comment, { html: true })?.severity).toBe(severity);
  });

  it('reads HTML, inline and same-origin script comments, masking secrets', () => {
    const site = makeSite({
      root: { url: 'https://app.example/', body: '<html><!-- TODO: remove debug bypass of auth --><script>// db password = "Hunter2-Hunter2"\nrun()</script></html>' },
      assets: [
        { url: 'https://app.example/app.js', body: '/* FIXME: sanitize input before innerHTML (xss) */\nf()' },
        { url: 'https://cdn.example/lib.js', body: '/* TODO: fix xss in lib */' },
      ],
    });
    const findings = suspiciousComments.run(site);
    expect(findings.map((f) => f.url)).toEqual(['https://app.example/', 'https://app.example/', 'https://app.example/app.js']);
    expect(JSON.stringify(findings)).not.toContain('Hunter2-Hunter2');
  });
});
