import { describe, expect, it } from 'vitest';
import { makeSite, type ExchangeInit } from '../testing/site';
import { errorDisclosure, findErrorSignature } from './error-disclosure';

const page = (body: string, extra: Partial<ExchangeInit> = {}) =>
  makeSite({ root: { url: 'https://app.example/', body: '<html><body>ok</body></html>' }, pages: [{ url: 'https://app.example/x', body, ...extra }] });

const SAMPLES: Array<[string, string]> = [
  ['java', 'java.lang.NullPointerException: boom\n\tat com.acme.web.Controller.handle(Controller.java:42)'],
  ['python', 'Traceback (most recent call last):\n  File "/app/main.py", line 10, in <module>'],
  ['php', '<b>Fatal error</b>:  Uncaught Error: Call to undefined function foo() in <b>/var/www/html/index.php</b> on line <b>3</b>'],
  ['node', "TypeError: Cannot read properties of undefined (reading 'id')\n    at handler (/srv/app/routes/user.js:12:20)"],
  ['dotnet', "<title>Runtime Error</title><h1>Server Error in '/' Application.</h1>"],
  ['ruby', "app/controllers/users_controller.rb:12:in `show'"],
  ['go', 'panic: runtime error: index out of range\n\ngoroutine 1 [running]:\nmain.main()'],
  ['django', "You're seeing this error because you have <code>DEBUG = True</code> in your Django settings file."],
  ['laravel', 'Illuminate\\Database\\QueryException: SQLSTATE'],
  ['werkzeug', '<title>ZeroDivisionError // Werkzeug Debugger</title>'],
  ['express', '<pre>Error: Not Found<br> &nbsp; &nbsp;at /srv/app/node_modules/express/lib/router/index.js:284:7</pre>'],
  ['sql', 'You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version'],
];

describe('error-disclosure', () => {
  it.each(SAMPLES)('recognises %s', (id, text) => {
    expect(findErrorSignature(`<html><body>${text}</body></html>`)?.id).toBe(id);
  });

  it.each([
    ['normal page', '<html><body><h1>Welcome</h1><p>Sign in to continue.</p></body></html>', {}],
    ['JavaScript bundle with error strings', 'throw new Error("x");\n    at foo (/src/a.js:1:1)', { contentType: 'application/javascript' }],
    ['prose about errors', '<p>An error in our SQL course: CREATE TABLE syntax</p>', {}],
  ])('no finding: %s', (_name, body, extra) => {
    expect(errorDisclosure.run(page(body, extra))).toEqual([]);
  });

  it('reports a stack trace in a probe answer with an excerpt', () => {
    const site = page('<html></html>');
    const withProbe = {
      ...site,
      probes: new Map([
        [
          'x:1',
          {
            ...site.root,
            url: 'https://app.example/api/x',
            finalUrl: 'https://app.example/api/x',
            contentType: 'application/json',
            body: '{"error":"TypeError: x is not a function\\n    at /srv/app/api.js:3:9"}',
          },
        ],
      ]),
    };
    const [finding] = errorDisclosure.run(withProbe);
    expect(finding?.key).toBe('node');
    expect(finding?.evidence.response).toContain('/srv/app/api.js');
  });
});
