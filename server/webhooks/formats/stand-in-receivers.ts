import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';

// Stand-ins for Slack's, Discord's and Microsoft Teams' incoming webhooks, which tests cannot reach: one loopback
// server that checks each body against what that service documents it accepts (shape and size limits) and answers
// as it does: Slack 200 'ok' or 400 'invalid_blocks', Discord 204 or 400 {code: 50035}, Teams 202 or 400. Paths
// start with the service ('/slack/…', '/discord/…', '/teams/…'; any other path answers 200 unchecked); one containing '/flaky' answers 503 to its first
// request, like a service's bad moment, so retries can be seen.

const text = (max: number) => z.string().min(1).max(max);
const mrkdwn = (max: number) => z.object({ type: z.enum(['mrkdwn', 'plain_text']), text: text(max) });
const slackBlock = z.union([
  z.object({ type: z.literal('section'), text: mrkdwn(3000).optional(), fields: z.array(mrkdwn(2000)).min(1).max(10).optional() }).refine((block) => block.text || block.fields),
  z.object({ type: z.literal('context'), elements: z.array(mrkdwn(3000)).min(1).max(10) }),
  z.object({ type: z.literal('header'), text: z.object({ type: z.literal('plain_text'), text: text(150) }) }),
  z.object({ type: z.literal('divider') }),
]);
const slackSchema = z.object({ text: z.string().max(40_000), blocks: z.array(slackBlock).max(50).optional() });

const discordEmbed = z.object({
  title: text(256).optional(),
  description: text(4096).optional(),
  url: z.string().url().optional(),
  timestamp: z.string().datetime().optional(),
  color: z.number().int().min(0).max(0xffffff).optional(),
  footer: z.object({ text: text(2048) }).optional(),
  fields: z
    .array(z.object({ name: text(256), value: text(1024), inline: z.boolean().optional() }))
    .max(25)
    .optional(),
});
const embedChars = (embed: z.infer<typeof discordEmbed>) =>
  (embed.title?.length ?? 0) +
  (embed.description?.length ?? 0) +
  (embed.footer?.text.length ?? 0) +
  (embed.fields ?? []).reduce((sum, field) => sum + field.name.length + field.value.length, 0);
const discordSchema = z
  .object({
    content: z.string().max(2000).optional(),
    embeds: z.array(discordEmbed).max(10).optional(),
    allowed_mentions: z.object({ parse: z.array(z.enum(['roles', 'users', 'everyone'])) }).optional(),
  })
  .refine((body) => body.content || body.embeds?.length, 'content or embeds')
  .refine((body) => (body.embeds ?? []).reduce((sum, embed) => sum + embedChars(embed), 0) <= 6000, 'embeds above 6000 characters');

const cardElement = z.union([
  z.object({ type: z.literal('TextBlock'), text: z.string() }).passthrough(),
  z.object({ type: z.literal('FactSet'), facts: z.array(z.object({ title: z.string(), value: z.string() })) }),
]);
const teamsSchema = z.object({
  type: z.literal('message'),
  attachments: z
    .array(
      z.object({
        contentType: z.literal('application/vnd.microsoft.card.adaptive'),
        contentUrl: z.null().optional(),
        content: z.object({
          type: z.literal('AdaptiveCard'),
          version: z.string().regex(/^1\.[0-6]$/),
          body: z.array(cardElement).min(1),
          actions: z.array(z.object({ type: z.literal('Action.OpenUrl'), title: z.string(), url: z.string().url() })).optional(),
        }),
      }),
    )
    .length(1),
});

export type ChatService = 'slack' | 'discord' | 'teams';

const SERVICES: Record<ChatService, { schema: z.ZodType; ok: [number, string]; bad: [number, string]; maxBytes: number }> = {
  slack: { schema: slackSchema, ok: [200, 'ok'], bad: [400, 'invalid_blocks'], maxBytes: 1024 * 1024 },
  discord: { schema: discordSchema, ok: [204, ''], bad: [400, '{"code": 50035, "message": "Invalid Form Body"}'], maxBytes: 1024 * 1024 },
  teams: { schema: teamsSchema, ok: [202, '1'], bad: [400, 'Bad payload'], maxBytes: 28 * 1024 },
};

export interface ChatRequest {
  service: ChatService | null;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  json: unknown;
  /** Why the stand-in refused the body; [] when it was what the service accepts. */
  problems: string[];
  status: number;
}

export interface ChatStandIns {
  url: string;
  requests: ChatRequest[];
  /** The requests at this path. */
  at(path: string): ChatRequest[];
  close(): Promise<void>;
}

function judge(service: ChatService | null, body: string): { json: unknown; problems: string[] } {
  if (!service) return { json: null, problems: [] };
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { json: null, problems: ['not JSON'] };
  }
  const { schema, maxBytes } = SERVICES[service];
  const problems = schema.safeParse(json).error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`) ?? [];
  if (Buffer.byteLength(body) > maxBytes) problems.push(`body above ${maxBytes} bytes`);
  return { json, problems };
}

export async function startChatStandIns(): Promise<ChatStandIns> {
  const requests: ChatRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0]!;
      const name = path.split('/')[1] ?? '';
      const service = name in SERVICES ? (name as ChatService) : null;
      const body = Buffer.concat(chunks).toString('utf8');
      const { json, problems } = judge(service, body);
      const first = !requests.some((request) => request.path === path);
      const [status, answer] =
        path.includes('/flaky') && first ? [503, 'try again later'] : !service ? [200, 'thanks'] : problems.length ? SERVICES[service].bad : SERVICES[service].ok;
      requests.push({ service, path, headers: req.headers, body, json, problems, status });
      res.writeHead(status, { 'content-type': 'text/plain' }).end(answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    at: (path) => requests.filter((request) => request.path === path),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
