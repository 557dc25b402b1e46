import { describe, expect, it } from 'vitest';
import { makeSite } from '../testing/site';
import { formPostsToHttp } from './form-posts-to-http';

const page = (url: string, form: string) => makeSite({ root: { url, body: `<html><body>${form}</body></html>` } });

describe('form-posts-to-http', () => {
  it.each([
    ['HTTPS action', page('https://app.example/', '<form action="https://app.example/s"><input name="q"></form>')],
    ['relative action', page('https://app.example/', '<form action="/s"><input name="q"></form>')],
    ['HTTP page (password-over-http covers it)', page('http://app.example/', '<form action="http://app.example/s"></form>')],
  ])('no finding: %s', (_name, site) => {
    expect(formPostsToHttp.run(site)).toEqual([]);
  });

  it('is medium for ordinary forms and high with a password', () => {
    expect(formPostsToHttp.run(page('https://app.example/', '<form action="http://news.example/subscribe"><input name="email"></form>'))[0]?.severity).toBe('medium');
    expect(formPostsToHttp.run(page('https://app.example/', '<form method="post" action="http://app.example/login"><input type="password" name="pw"></form>'))[0]?.severity).toBe(
      'high',
    );
  });
});
