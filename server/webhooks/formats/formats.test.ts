import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { DISCORD_CONTENT_MAX, DISCORD_DESCRIPTION_MAX, DISCORD_EMBED_TOTAL_MAX, DISCORD_FIELD_VALUE_MAX, DISCORD_TITLE_MAX } from './discord';
import { chatBody, deliveryRequest } from './index';
import { chatMessage, cut, type EventBody } from './message';
import { SLACK_FIELD_MAX, SLACK_SECTION_MAX } from './slack';
import { TEAMS_BODY_MAX } from './teams';

const ORIGIN = 'https://vibeeval.example';
const PROJECT = '8b0c3f5e-1d2a-4c3b-9e8f-0a1b2c3d4e5f';
/** What a hostile site could make a finding's title: a broadcast, a ping, markup, a script and a masked link. */
const HOSTILE = '<!channel> @everyone @here <@123456> *bold* _it_ `code` <script>alert(1)</script> & [click me](https://evil.example) <https://evil.example|login>';

const scan = (data: Record<string, unknown> = {}): EventBody => ({
  type: 'scan.completed',
  timestamp: '2026-11-29T00:00:00.000Z',
  data: {
    scan_id: 'c0ffee00-0000-4000-8000-000000000001',
    project_id: PROJECT,
    url: 'https://shop.example/',
    score: 71,
    grade: 'C',
    counts: { critical: 1, high: 1, medium: 2, low: 6, info: 3 },
    ...data,
  },
});

interface DiscordBody {
  content: string;
  allowed_mentions: unknown;
  embeds: {
    title: string;
    description: string;
    url?: string;
    timestamp?: string;
    color: number;
    footer: { text: string };
    fields: { name: string; value: string; inline: boolean }[];
  }[];
}
interface TeamsBody {
  type: string;
  attachments: {
    contentType: string;
    content: { type: string; version: string; actions?: unknown[]; body: { type: string; text?: string; facts?: { title: string; value: string }[] }[] };
  }[];
}
const discord = (event: EventBody) => chatBody('discord', event, ORIGIN) as unknown as DiscordBody;
const teams = (event: EventBody) => chatBody('teams', event, ORIGIN) as unknown as TeamsBody;

const many = (count: number, title: (index: number) => string) =>
  Array.from({ length: count }, (_, index) => ({ title: title(index), severity: index % 2 ? 'medium' : 'critical', fingerprint: `f${index}` }));

/** Every string anywhere in a JSON value. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

describe('chatMessage', () => {
  it('says a scan in the one vocabulary: grade, issues and warnings, the new findings most severe first, the project link', () => {
    const message = chatMessage(
      scan({
        new_findings: [
          { title: 'Missing CSP', severity: 'medium' },
          { title: 'Exposed .env', severity: 'critical' },
        ],
      }),
      ORIGIN,
    );
    expect(message.headline).toBe('Scan completed: https://shop.example/');
    expect(message.tone).toBe('bad');
    expect(message.facts).toEqual([
      { label: 'Grade', value: 'C (score 71)' },
      { label: 'Findings', value: '4 issues, 6 warnings' },
    ]);
    expect(message.findings).toEqual(['[critical] Exposed .env', '[medium] Missing CSP']);
    expect(message.link).toEqual({ url: `${ORIGIN}/dashboard/projects/${PROJECT}`, label: 'Open in vibeeval' });
  });

  it('prefers the project name and the report link the event carries, and counts the new findings it does not list', () => {
    const message = chatMessage(
      scan({ project_name: 'Shop', report_url: 'https://vibeeval.example/reports/r1/view?sig=x', new_findings: many(8, (i) => `F${i}`), new_count: 12 }),
      null,
    );
    expect(message.headline).toBe('Scan completed: Shop');
    expect(message.findings).toHaveLength(5);
    expect(message.moreFindings).toBe(7);
    expect(message.link).toEqual({ url: 'https://vibeeval.example/reports/r1/view?sig=x', label: 'Open the report' });
  });

  it('says a failed scenario with its step and error, and a passed one without', () => {
    const data = {
      run_id: 'r',
      scenario_id: 's',
      project_id: null,
      name: 'Checkout',
      website: 'https://shop.example',
      status: 'failed',
      failed_step: 3,
      error: 'Button not found',
      duration_ms: 4200,
    };
    const failed = chatMessage({ type: 'scenario_run.completed', data }, ORIGIN);
    expect(failed).toMatchObject({ headline: 'Scenario failed: Checkout', tone: 'bad', note: 'Button not found', link: { url: `${ORIGIN}/dashboard/scans` } });
    expect(failed.facts).toContainEqual({ label: 'Failed at step', value: '3' });
    const passed = chatMessage({ type: 'scenario_run.completed', data: { ...data, status: 'passed' } }, ORIGIN);
    expect(passed).toMatchObject({ headline: 'Scenario passed: Checkout', tone: 'good', note: null });
    expect(passed.facts.map((fact) => fact.label)).not.toContain('Failed at step');
  });

  it("says a failed scan with its reason, and a build by what changed, never 'success' beside a grade", () => {
    const failed = chatMessage(
      { type: 'scan.failed', data: { scan_id: 's', project_id: 'p', url: 'https://shop.example/', error: 'The site did not answer within 30 s' } },
      ORIGIN,
    );
    expect(failed).toMatchObject({
      headline: 'Scan failed: https://shop.example/',
      tone: 'bad',
      note: 'The site did not answer within 30 s',
      link: { url: `${ORIGIN}/dashboard/projects/p` },
    });
    const build = (status: string) =>
      chatMessage({ type: 'continuous_build.completed', data: { url: 'https://shop.example/', status, grade: 'F', new_count: 0, fixed_count: 0 } }, ORIGIN);
    expect(build('success').headline).toBe('Build checked, nothing new: https://shop.example/');
    expect(build('warning').headline).toBe('Build warning, new findings: https://shop.example/');
    expect(build('error')).toMatchObject({ headline: 'Build error: https://shop.example/', tone: 'bad' });
  });

  it('keeps a hostile title on one line: a title cannot forge lines of the message', () => {
    const message = chatMessage(scan({ new_findings: [{ title: 'One\nGrade: A+\r\n*all clear*', severity: 'high' }] }), ORIGIN);
    expect(message.findings).toEqual(['[high] One Grade: A+ *all clear*']);
  });

  it('cuts with an ellipsis, never inside a character', () => {
    expect(cut('abcdef', 4)).toBe('abc…');
    expect(cut('abc', 4)).toBe('abc');
    expect(cut('😀😀😀😀😀', 3)).toBe('😀😀…');
  });
});

describe('Slack', () => {
  it('is {text, blocks} in mrkdwn, with the grade, the tally, the findings and the link', () => {
    const body = chatBody('slack', scan({ new_findings: [{ title: 'Exposed .env', severity: 'critical' }] }), ORIGIN) as { text: string; blocks: Record<string, unknown>[] };
    expect(body.text).toContain('Scan completed: https://shop.example/');
    expect(body.blocks.map((block) => block.type)).toEqual(['section', 'section', 'section', 'context']);
    const all = strings(body.blocks).join('\n');
    expect(all).toContain('4 issues, 6 warnings');
    expect(all).toContain('• [critical] Exposed .env');
    expect(all).toContain(`<${ORIGIN}/dashboard/projects/${PROJECT}|Open in vibeeval>`);
  });

  it('escapes &, < and > in every text of a scanned site: no broadcast, no mention, no link, no markup', () => {
    const body = chatBody('slack', scan({ url: HOSTILE, new_findings: [{ title: HOSTILE, severity: 'high' }] }), ORIGIN);
    for (const text of strings(body)) {
      // The only < of the message opens our own link.
      expect(text.replace(`<${ORIGIN}/dashboard/projects/${PROJECT}|Open in vibeeval>`, '')).not.toMatch(/[<>]/);
      expect(text).not.toMatch(/&(?!amp;|lt;|gt;)/);
      expect(text).not.toMatch(/@(everyone|here|channel)/i);
    }
    expect(JSON.stringify(body)).toContain('&lt;!channel&gt;');
    expect(JSON.stringify(body)).toContain('&lt;script&gt;');
  });

  it('keeps to Block Kit limits with the longest texts: sections, fields, blocks', () => {
    const body = chatBody('slack', scan({ url: '&'.repeat(5000), new_findings: many(40, () => '<'.repeat(400)), new_count: 40 }), ORIGIN) as {
      text: string;
      blocks: { text?: { text: string }; fields?: { text: string }[] }[];
    };
    expect(body.blocks.length).toBeLessThanOrEqual(50);
    for (const block of body.blocks) {
      if (block.text) expect(block.text.text.length).toBeLessThanOrEqual(SLACK_SECTION_MAX);
      for (const field of block.fields ?? []) expect(field.text.length).toBeLessThanOrEqual(SLACK_FIELD_MAX);
    }
    const findings = body.blocks.find((block) => block.text?.text.startsWith('*New findings*'))!.text!.text;
    expect(findings).toMatch(/…and \d+ more in vibeeval$/);
    // An entity is never cut in two.
    expect(JSON.stringify(body)).not.toMatch(/&(a|am|l|g|lt|gt)?…/);
  });
});

describe('Discord', () => {
  it('is {content, embeds} with allowed_mentions parse [] (nobody is pinged, whatever the text)', () => {
    const body = discord(scan({ new_findings: [{ title: 'Exposed .env', severity: 'critical' }] }));
    expect(body.allowed_mentions).toEqual({ parse: [] });
    expect(body.content).toContain('Scan completed');
    expect(body.content).toContain(`<${ORIGIN}/dashboard/projects/${PROJECT}>`);
    const embed = body.embeds[0]!;
    expect(embed).toMatchObject({ url: `${ORIGIN}/dashboard/projects/${PROJECT}`, timestamp: '2026-11-29T00:00:00.000Z' });
    expect(embed.color).toBe(0xe03131);
    expect(embed.fields).toContainEqual({ name: 'Findings', value: '4 issues, 6 warnings', inline: true });
    expect(embed.description).toContain('\\[critical\\] Exposed .env');
  });

  it("escapes markdown and mention syntax in a scanned site's texts", () => {
    const body = discord(scan({ new_findings: [{ title: HOSTILE, severity: 'high' }] }));
    const description = body.embeds[0]!.description;
    expect(description).toContain('\\@everyone');
    expect(description).toContain('\\<\\@123456\\>');
    expect(description).toContain('\\[click me\\]\\(https\\://evil.example\\)');
    expect(description).toContain('\\*bold\\*');
    // No markdown character of the title is left unescaped.
    const title = description.split('\n').find((row) => row.includes('script'))!;
    expect(title.replace(/\\./g, '')).not.toMatch(/[*_`<>@[\]()~|]/);
  });

  it('keeps to the content, embed and total limits with the longest texts', () => {
    const body = discord(scan({ url: '*'.repeat(5000), new_findings: many(40, () => '_'.repeat(400)), new_count: 40 }));
    expect(body.content.length).toBeLessThanOrEqual(DISCORD_CONTENT_MAX);
    const embed = body.embeds[0]!;
    expect(body.embeds.length).toBeLessThanOrEqual(10);
    expect(embed.title.length).toBeLessThanOrEqual(DISCORD_TITLE_MAX);
    expect(embed.description.length).toBeLessThanOrEqual(DISCORD_DESCRIPTION_MAX);
    for (const field of embed.fields) expect(field.value.length).toBeLessThanOrEqual(DISCORD_FIELD_VALUE_MAX);
    const total = embed.title.length + embed.description.length + embed.footer.text.length + embed.fields.reduce((sum, field) => sum + field.name.length + field.value.length, 0);
    expect(total).toBeLessThanOrEqual(DISCORD_EMBED_TOTAL_MAX);
    expect(embed.description).toMatch(/…and \d+ more in vibeeval$/);
    // A cut never leaves a backslash escaping the ellipsis.
    expect(JSON.stringify(body)).not.toMatch(/(?<!\\\\)\\\\…/);
  });
});

describe('Microsoft Teams', () => {
  it('is a message with one Adaptive Card 1.4 attachment: TextBlocks, a FactSet and an OpenUrl action', () => {
    const body = teams(scan({ new_findings: [{ title: 'Exposed .env', severity: 'critical' }] }));
    expect(body.type).toBe('message');
    expect(body.attachments).toHaveLength(1);
    const attachment = body.attachments[0]!;
    expect(attachment.contentType).toBe('application/vnd.microsoft.card.adaptive');
    expect(attachment.content).toMatchObject({ type: 'AdaptiveCard', version: '1.4', $schema: 'http://adaptivecards.io/schemas/adaptive-card.json' });
    expect(attachment.content.actions).toEqual([{ type: 'Action.OpenUrl', title: 'Open in vibeeval', url: `${ORIGIN}/dashboard/projects/${PROJECT}` }]);
    const types = attachment.content.body.map((element) => element.type);
    expect(new Set(types)).toEqual(new Set(['TextBlock', 'FactSet']));
    expect(attachment.content.body[1]!.facts).toContainEqual({ title: 'Findings', value: '4 issues, 6 warnings' });
    expect(attachment.content.body.map((element) => element.text)).toContain('• [critical] Exposed .env');
  });

  it("mentions nobody and makes no link of a scanned site's text", () => {
    const body = chatBody('teams', scan({ new_findings: [{ title: HOSTILE, severity: 'high' }] }), ORIGIN);
    const json = JSON.stringify(body);
    expect(json).not.toContain('msteams');
    expect(json).not.toContain('<at>');
    expect(strings(body).some((text) => /\]\s*\(/.test(text))).toBe(false);
    expect(strings(body).some((text) => text.includes('[click me]\u200b(https://evil.example)'))).toBe(true);
  });

  it('stays under the size Teams accepts with the longest texts', () => {
    const body = chatBody('teams', scan({ url: 'x'.repeat(5000), new_findings: many(400, () => '"'.repeat(400)), new_count: 400 }), ORIGIN);
    expect(Buffer.byteLength(JSON.stringify(body))).toBeLessThanOrEqual(TEAMS_BODY_MAX);
  });
});

describe('deliveryRequest', () => {
  const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
  const signing = { secret: () => secret, messageId: 'msg_1' };

  it('signs the event body itself for the standard format', () => {
    const event = scan();
    const request = deliveryRequest('standard', event, signing, ORIGIN);
    expect(JSON.parse(request.body)).toEqual(event);
    expect(new Webhook(secret).verify(request.body, request.headers)).toEqual(event);
  });

  it('sends chat formats unsigned (without reading the secret), as JSON', () => {
    for (const format of ['slack', 'discord', 'teams'] as const) {
      const request = deliveryRequest(
        format,
        scan(),
        {
          secret: () => {
            throw new Error('not needed');
          },
          messageId: 'msg_1',
        },
        ORIGIN,
      );
      expect(request.headers['content-type']).toBe('application/json');
      expect(Object.keys(request.headers).filter((name) => name.startsWith('webhook-'))).toEqual([]);
      expect(JSON.parse(request.body)).toEqual(chatBody(format, scan(), ORIGIN));
    }
  });
});
