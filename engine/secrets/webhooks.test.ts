import { describe, expect, it } from 'vitest';
import { HEX, UPPER32, fakeToken as t } from '../testing/fake-keys';
import { actionOf, findWebhookUrls, isWebhookUrl, judgeWebhook, maskWebhookUrl, WEBHOOK_PATTERNS } from './webhooks';

const LOWER = 'abcdefghijklmnopqrstuvwxyz0123456789';
const DIGITS = '0123456789';
const URLSAFE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';
const uuid = (seed: number) => `${t(8, HEX, seed)}-${t(4, HEX, seed + 1)}-4${t(3, HEX, seed + 2)}-a${t(3, HEX, seed + 3)}-${t(12, HEX, seed + 4)}`;

/** Real shapes, one or more per provider, assembled at run time: [pattern id, URL, the token part]. */
const SHAPES: Array<[string, string, string]> = (() => {
  const make = t(32, LOWER, 1);
  const integromat = t(32, LOWER, 2);
  const zap = `${t(8, DIGITS, 3)}/${t(7, LOWER, 4)}`;
  const n8nId = uuid(5);
  const pipedream = `eo${t(15, LOWER, 10)}`;
  const ifttt = t(22, URLSAFE, 11);
  const slack = `T${t(9, UPPER32, 12)}/B${t(9, UPPER32, 13)}/${t(24, undefined, 14)}`;
  const slackFlow = `T${t(9, UPPER32, 15)}/A${t(9, UPPER32, 16)}/${t(18, DIGITS, 17)}/${t(30, undefined, 18)}`;
  const discord = `${t(18, DIGITS, 19)}/${t(68, URLSAFE, 20)}`;
  const teams = `${uuid(21)}@${uuid(26)}/IncomingWebhook/${t(32, HEX, 31)}/${uuid(32)}/V2${t(40, undefined, 37)}`;
  const sig = t(43, URLSAFE, 38);
  const chat = `${t(43, URLSAFE, 39)}%3D`;
  return [
    ['make', `https://hook.eu1.make.com/${make}`, make],
    ['make', `https://hook.integromat.com/${integromat}`, integromat],
    ['zapier', `https://hooks.zapier.com/hooks/catch/${zap}`, zap],
    ['n8n-cloud', `https://acme-studio.app.n8n.cloud/webhook/${n8nId}`, n8nId],
    ['n8n-cloud', 'https://acme-studio.app.n8n.cloud/webhook-test/send-email', 'send-email'],
    ['n8n-self-hosted', 'https://n8n.acme-tools.io/webhook/contact-form', 'contact-form'],
    ['pipedream', `https://${pipedream}.m.pipedream.net`, pipedream],
    ['ifttt', `https://maker.ifttt.com/trigger/new_order/with/key/${ifttt}`, ifttt],
    ['ifttt', `https://maker.ifttt.com/trigger/ping/json/with/key/${ifttt}x`, `${ifttt}x`],
    ['slack-incoming', `https://hooks.slack.com/services/${slack}`, slack],
    ['slack-workflow', `https://hooks.slack.com/workflows/${slackFlow}`, slackFlow],
    ['discord', `https://discord.com/api/webhooks/${discord}`, discord],
    ['discord', `https://discordapp.com/api/v10/webhooks/${discord}`, discord],
    ['teams', `https://acme.webhook.office.com/webhookb2/${teams}`, teams],
    [
      'power-automate',
      `https://prod-27.westeurope.logic.azure.com:443/workflows/${t(32, HEX, 40)}/triggers/manual/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=${sig}`,
      sig,
    ],
    ['google-chat', `https://chat.googleapis.com/v1/spaces/AAAA${t(7, undefined, 41)}/messages?key=${'AIza' + t(35, undefined, 42)}&token=${chat}`, chat],
  ];
})();

describe('webhook URL shapes', () => {
  it('has a sample for every provider shape', () => {
    const sampled = new Set(SHAPES.map(([id]) => id));
    expect(WEBHOOK_PATTERNS.map((p) => p.id).filter((id) => !sampled.has(id))).toEqual([]);
  });

  it.each(SHAPES)('%s: %s', (id, url, token) => {
    const text = `const HOOK="${url}";`;
    const hits = findWebhookUrls(text);
    expect(hits.map((h) => [h.patternId, h.url, h.token])).toEqual([[id, url, token]]);
    expect(text.slice(hits[0]!.start, hits[0]!.end)).toBe(url);
    // The mask never shows the token whole.
    expect(maskWebhookUrl(hits[0]!)).not.toContain(token);
  });

  it('finds a self-hosted n8n webhook by its generated id when n8n is named nearby, and not on a local machine', () => {
    const url = `https://automations.acme-tools.io/webhook/${uuid(50)}`;
    expect(findWebhookUrls(`const N8N_WEBHOOK_URL="${url}"`).map((h) => [h.patternId, h.confidence])).toEqual([['n8n-self-hosted', 'medium']]);
    expect(findWebhookUrls(`const N8N_WEBHOOK_URL="http://localhost:5678/webhook/${uuid(51)}"`)).toEqual([]);
  });

  const NOT_WEBHOOKS: Array<[string, string]> = [
    ['placeholder ids', '<code>https://hooks.zapier.com/hooks/catch/YOUR_ID/YOUR_KEY/</code>'],
    ['x placeholders', 'const url = "https://hook.eu1.make.com/xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"'],
    ['Slack documentation sample', 'https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX'],
    ['angle-bracket template', 'POST https://discord.com/api/webhooks/<id>/<token>'],
    ['brace template', 'https://maker.ifttt.com/trigger/{event}/with/key/{your_key}'],
    ['Google Chat documentation sample', 'https://chat.googleapis.com/v1/spaces/SPACE_ID/messages?key=KEY&token=TOKEN'],
    ['n8n placeholder path', 'https://acme.app.n8n.cloud/webhook/your-webhook-id'],
    ['env variable name', 'fetch(import.meta.env.VITE_ZAPIER_WEBHOOK_URL ?? YOUR_WEBHOOK_URL)'],
    [
      'provider marketing pages',
      '<a href="https://zapier.com/apps/webhook/integrations">Zapier</a> <a href="https://www.make.com/en/integrations/gateway">Make</a> <a href="https://n8n.io/integrations/webhook/">n8n</a> <a href="https://ifttt.com/maker_webhooks">IFTTT</a> <a href="https://hooks.zapier.com/">hooks</a>',
    ],
    ['help text naming the host', 'Paste your Zapier hook (it starts with https://hooks.zapier.com/hooks/catch/) in Settings.'],
    ["the app's own webhook route, no n8n", `fetch("https://api.acme-tools.io/webhook/${uuid(60)}")`],
    ['Zapier documentation sample', 'https://hooks.zapier.com/hooks/catch/123456/abcdef/'],
    ['Discord documentation sample', `https://discord.com/api/webhooks/123456789012345678/${'abcdefghijklmnopqrstuvwxyz'.repeat(3)}`],
    ['a repeated-character token', 'https://hooks.zapier.com/hooks/catch/1111111/aaaaaaa/'],
  ];
  it.each(NOT_WEBHOOKS)('no match: %s', (_name, text) => {
    expect(findWebhookUrls(text)).toEqual([]);
  });

  it('tells a request to a webhook from any other request', () => {
    expect(SHAPES.every(([, url]) => isWebhookUrl(url))).toBe(true);
    expect(isWebhookUrl(`${SHAPES[0]![1]}?source=landing`)).toBe(true);
    expect(isWebhookUrl('https://app.test/api/contact')).toBe(false);
    expect(isWebhookUrl(`https://app.test/track?next=${SHAPES[0]![1]}`)).toBe(false);
    expect(isWebhookUrl(`https://api.acme-tools.io/webhook/${uuid(61)}`)).toBe(false);
  });

  it('reports each URL once per text', () => {
    const url = SHAPES[2]![1];
    expect(findWebhookUrls(`a="${url}";b="${url}"`)).toHaveLength(1);
  });
});

describe('what the workflow does', () => {
  const zap = SHAPES[2]![1];
  const cases: Array<[string, string, string, string?]> = [
    ['a contact form sending name, email and message', `fetch("${zap}",{method:"POST",body:JSON.stringify({name:e,email:t,message:n})})`, 'medium'],
    ['a payload with a subject', `fetch("${zap}",{method:"POST",headers:{"Content-Type":"application/json"},body:JSON.stringify({ email, subject, message })})`, 'high', 'mail'],
    [
      'an order posted through a constant',
      `const ORDER_HOOK="${zap}";function other(){return 1}async function place(o){await axios.post(ORDER_HOOK,{order_id:o.id,total:o.total})}`,
      'high',
      'charge',
    ],
    [
      'a minified constant used far below',
      `const Zt="${zap}";${'x'.repeat(3000)};await fetch(Zt,{method:"POST",body:JSON.stringify({customerName:a,bookingDate:b})})`,
      'high',
      'write',
    ],
    [
      'the second inlined copy of the URL',
      `fetch("${zap}",{method:"POST",body:JSON.stringify({page:p})});fetch("${zap}",{method:"POST",body:JSON.stringify({invoice:i})})`,
      'high',
      'charge',
    ],
    ['unrelated code after the literal', `const H="${zap}";function App(){return c.createElement("div",{onClick:save},"Save order")}`, 'medium'],
    ['a Discord message', `fetch("${SHAPES[11]![1]}",{method:"POST",body:JSON.stringify({content:\`New visitor \${n}\`})})`, 'medium'],
  ];
  it.each(cases)('%s', (_name, text, severity, action) => {
    const [hit] = findWebhookUrls(text);
    const verdict = judgeWebhook(hit!, text);
    expect([verdict.severity, verdict.action]).toEqual([severity, action]);
    expect(verdict.reason).toMatch(/^[A-Z][^.]*[^.]*\.$/);
  });

  it('reads the workflow name of an n8n path or an IFTTT event', () => {
    const [n8n] = findWebhookUrls('x="https://acme-studio.app.n8n.cloud/webhook/send-email"');
    expect(judgeWebhook(n8n!, '').action).toBe('mail');
    const [ifttt] = findWebhookUrls(`x="https://maker.ifttt.com/trigger/new_order/with/key/${t(22, URLSAFE, 70)}"`);
    expect(judgeWebhook(ifttt!, '').action).toBe('charge');
    const [named] = findWebhookUrls('x="https://n8n.acme-tools.io/webhook/insert-lead"');
    expect([named?.token, judgeWebhook(named!, '').action]).toEqual(['insert-lead', 'write']);
    expect(actionOf('contact form')).toBeUndefined();
  });
});
