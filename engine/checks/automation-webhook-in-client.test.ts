import { describe, expect, it } from 'vitest';
import { fakeToken } from '../testing/fake-keys';
import { makeSite } from '../testing/site';
import { automationWebhookInClient } from './automation-webhook-in-client';
import { publicKeyInClient } from './public-key-in-client';
import { secretInClient } from './secret-in-client';

const LOWER = 'abcdefghijklmnopqrstuvwxyz0123456789';
const makeToken = fakeToken(32, LOWER, 401);
const MAKE = `https://hook.eu1.make.com/${makeToken}`;
const zapToken = `${fakeToken(8, '0123456789', 402)}/${fakeToken(7, LOWER, 403)}`;
const ZAPIER = `https://hooks.zapier.com/hooks/catch/${zapToken}/`;
const SLACK = `https://hooks.slack.com/services/T${fakeToken(9, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 404)}/B${fakeToken(9, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 405)}/${fakeToken(24, undefined, 406)}`;
const DISCORD = `https://discord.com/api/webhooks/${fakeToken(18, '0123456789', 407)}/${fakeToken(68, undefined, 408)}`;
const CHAT = `https://chat.googleapis.com/v1/spaces/AAAA${fakeToken(7, undefined, 409)}/messages?key=${'AIza' + fakeToken(35, undefined, 410)}&token=${fakeToken(43, undefined, 411)}%3D`;
const page = (script: string, body = '') => ({ url: 'https://app.test/', body: `<html><head><script>${script}</script></head><body>${body}</body></html>` });

describe('automation-webhook-in-client', () => {
  const valid = {
    'no webhook at all': makeSite({ root: page('fetch("/api/contact",{method:"POST",body:JSON.stringify({name:e,email:t,subject:s})})') }),
    'a help text naming the provider without a token': makeSite({
      root: page(
        '',
        '<p>Connect Zapier: paste your hook URL (https://hooks.zapier.com/hooks/catch/…) in Settings. See <a href="https://zapier.com/apps/webhook/integrations">Webhooks by Zapier</a>.</p>',
      ),
    }),
    'a call to a Supabase edge function': makeSite({ root: page('await Ve.functions.invoke("send-contact",{body:{name:e,email:t,subject:s}})') }),
  };
  it.each(Object.entries(valid))('no finding: %s', (_name, site) => {
    expect(automationWebhookInClient.run(site)).toEqual([]);
  });

  it('reports each URL once with every place it was seen, masked everywhere, rated by the payload that reaches it', () => {
    const site = makeSite({
      root: page('', `<p>Questions? Our form goes straight to ${MAKE}</p>`),
      assets: [
        {
          url: 'https://app.test/assets/index-abc.js',
          body: `const Ht="${MAKE}";async function send(n,e,s,m){return fetch(Ht,{method:"POST",body:JSON.stringify({name:n,email:e,subject:s,message:m})})}fetch("${ZAPIER}",{method:"POST",body:JSON.stringify({visitor:v})})`,
        },
        {
          url: 'https://app.test/assets/index-abc.js.map',
          kind: 'sourcemap',
          body: JSON.stringify({ sources: ['src/lib/contact.ts'], sourcesContent: [`export const CONTACT_HOOK = "${MAKE}";`] }),
        },
      ],
      rendering: { status: 'done', requests: [{ url: ZAPIER, method: 'POST', resourceType: 'fetch' }] },
    });
    const findings = automationWebhookInClient.run(site);
    expect(findings.map((f) => [f.title, f.severity])).toEqual([
      ['Make webhook URL in client code', 'high'],
      ['Zapier webhook URL in client code', 'medium'],
    ]);
    expect(findings[0]!.evidence.response!.split('\n')).toEqual([
      'page: https://app.test/',
      'script: https://app.test/assets/index-abc.js',
      'source map src/lib/contact.ts: https://app.test/assets/index-abc.js.map',
    ]);
    expect(findings[0]!.detail).toMatch(/^https:\/\/hook\.eu1\.make\.com\/\S+ lets anyone trigger your Make scenario with any data; seen in 3 places\. The payload .* sends mail/);
    expect(findings[0]!.evidence.match).toContain('subject:s');
    expect(findings[1]!.evidence.response).toContain('POST request made by the page: https://hooks.zapier.com/hooks/catch/');
    const all = JSON.stringify(findings);
    expect(all).not.toContain(makeToken);
    expect(all).not.toContain(zapToken);
    expect(findings[0]!.key).toMatch(/^make:[0-9a-f]{16}$/);
  });

  it('is the only check that reports Slack, Discord and Google Chat webhooks', () => {
    const site = makeSite({ root: page(`const a="${SLACK}",b="${DISCORD}",c="${CHAT}";`) });
    expect(automationWebhookInClient.run(site).map((f) => f.title)).toEqual([
      'Slack webhook URL in client code',
      'Discord webhook URL in client code',
      'Google Chat webhook URL in client code',
    ]);
    const all = JSON.stringify(automationWebhookInClient.run(site));
    for (const url of [SLACK, DISCORD, CHAT]) expect(all).not.toContain(url.slice(-16));
    expect(secretInClient.run(site)).toEqual([]);
    expect(publicKeyInClient.run(site)).toEqual([]);
  });
});
