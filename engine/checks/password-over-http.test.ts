import { describe, expect, it } from 'vitest';
import { makeSite } from '../testing/site';
import { passwordOverHttp } from './password-over-http';

const LOGIN = '<html><body><form method="post" action="/login"><input name="email"><input type="password" name="password"></form></body></html>';

describe('password-over-http', () => {
  it.each([
    ['HTTPS login page', makeSite({ root: { url: 'https://app.example/login', body: LOGIN } })],
    ['HTTP page without password', makeSite({ root: { url: 'http://app.example/', body: '<form><input name="q"></form>' } })],
    ['local development server', makeSite({ root: { url: 'http://localhost:3000/login', body: LOGIN } })],
  ])('no finding: %s', (_name, site) => {
    expect(passwordOverHttp.run(site)).toEqual([]);
  });

  it('reports password fields on HTTP pages, also outside forms', () => {
    expect(passwordOverHttp.run(makeSite({ root: { url: 'http://app.example/login', body: LOGIN } }))).toHaveLength(1);
    const [finding] = passwordOverHttp.run(makeSite({ root: { url: 'http://app.example/', body: '<div><input type="password" id="pw"></div>' } }));
    expect(finding?.evidence.match).toContain('type="password"');
  });
});
