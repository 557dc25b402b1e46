import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Step } from '../../common/scenarios';
import { findChromium } from '../browser';
import { startScenarioHarness, type ScenarioHarness } from '../testing/scenario-harness';
import { SCENARIO_SITE_USER, type ScenarioSite } from '../testing/scenario-site';
import { ProposalError, proposeScenarios, type ScenarioBrowser } from './index';

const chromium = findChromium();
if (chromium.path === null) console.warn(`llm.test.ts skipped: ${chromium.reason}`);
const policy = { allowPrivate: true };

interface ChatRequest {
  authorization: string | undefined;
  body: { model: string; temperature: number; response_format: unknown; messages: { role: string; content: string }[] };
}

/** The stand-in for the AI provider: a local server speaking the chat completions protocol, answering from a script. */
async function startChatCompletionsStandIn(answers: string[]) {
  const requests: ChatRequest[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') return res.writeHead(404).end();
      requests.push({ authorization: req.headers.authorization, body: JSON.parse(body) as ChatRequest['body'] });
      const content = answers[Math.min(requests.length - 1, answers.length - 1)]!;
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, requests, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const SIGN_IN: Step[] = [
  { type: 'goto', url: '/login' },
  { type: 'fill', target: { by: 'label', text: 'Email' }, value: { credential: 'username' } },
  { type: 'fill', target: { by: 'label', text: 'Password' }, value: { credential: 'password' } },
  { type: 'press', target: { by: 'label', text: 'Password' }, key: 'Enter' },
  { type: 'expect_url', pattern: '/dashboard' },
];
const PRICING: Step[] = [
  { type: 'goto', url: '/' },
  { type: 'click', target: { by: 'role', role: 'link', name: 'Pricing' } },
  { type: 'expect_title', text: 'Pricing' },
];
const MISSING: Step[] = [
  { type: 'goto', url: '/' },
  { type: 'click', target: { by: 'role', role: 'button', name: 'Buy now' } },
];
const answer = (scenarios: { name: string; steps: unknown }[]) => JSON.stringify({ scenarios });

describe.skipIf(chromium.path === null)('proposeScenarios with an AI service (a local stand-in)', () => {
  let harness: ScenarioHarness;
  let site: ScenarioSite;
  let browser: ScenarioBrowser;
  let standIn: Awaited<ReturnType<typeof startChatCompletionsStandIn>> | undefined;
  beforeAll(async () => {
    harness = await startScenarioHarness(chromium.path);
    ({ site, browser } = harness);
  });
  afterAll(() => harness?.close());
  const propose = async (answers: string[], apiKey: string | null = 'sk-test-key') => {
    await standIn?.close();
    standIn = await startChatCompletionsStandIn(answers);
    return proposeScenarios({
      website: site.url,
      instructions: `Sign in with ${SCENARIO_SITE_USER.username} / ${SCENARIO_SITE_USER.password} and check the notes.`,
      credentials: SCENARIO_SITE_USER,
      browser: browser.browser,
      policy,
      rateLimit: 0,
      llm: { baseUrl: standIn.baseUrl, apiKey, model: 'test-model' },
    });
  };
  afterAll(() => standIn?.close());

  it('asks with the page snapshot and instructions, never the password, and keeps the scenarios that pass their dry run', async () => {
    const proposals = await propose([
      answer([
        { name: 'Sign in', steps: SIGN_IN },
        { name: 'Pricing from the menu', steps: PRICING },
      ]),
    ]);
    expect(proposals).toEqual([
      { website: site.url, name: 'Sign in', steps: SIGN_IN },
      { website: site.url, name: 'Pricing from the menu', steps: PRICING },
    ]);
    expect(standIn!.requests).toHaveLength(1);
    const [request] = standIn!.requests;
    expect(request!.authorization).toBe('Bearer sk-test-key');
    expect(request!.body).toMatchObject({ model: 'test-model', temperature: 0, response_format: { type: 'json_object' } });
    const prompt = request!.body.messages.map((message) => message.content).join('\n');
    expect(prompt).toContain('- heading "Notes for busy teams"'); // the aria snapshot
    expect(prompt).toContain('{"credential":"password"}');
    expect(prompt).toContain('check the notes');
    expect(prompt).not.toContain(SCENARIO_SITE_USER.password);
  });

  it('sends an invalid answer back once with the reason, and takes the valid second one', async () => {
    const proposals = await propose(['{"scenarios":[{"name":"Broken","steps":[{"type":"tap","target":"Pricing"}]}]}', answer([{ name: 'Pricing', steps: PRICING }])], null);
    expect(proposals.map((p) => p.name)).toEqual(['Pricing']);
    expect(standIn!.requests).toHaveLength(2);
    expect(standIn!.requests[0]!.authorization).toBeUndefined();
    const retry = standIn!.requests[1]!.body.messages;
    expect(retry.at(-2)).toMatchObject({ role: 'assistant' });
    expect(retry.at(-1)!.content).toMatch(/^Your answer is not valid: scenarios\.0\.steps\.0\.type: /);
  });

  it('refuses an answer that is invalid twice', async () => {
    const error = await propose(['Sure! Here are some tests.', '{"scenarios":[]}']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProposalError);
    expect((error as Error).message).toBe("The AI service's answer was not a valid scenario twice: scenarios: must have at least one scenario");
    expect(standIn!.requests).toHaveLength(2);
  });

  it('refuses a scenario whose dry run cannot find a step, naming the step; drops it when another passes', async () => {
    const error = await propose([answer([{ name: 'Buy', steps: MISSING }])]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProposalError);
    expect((error as Error).message).toBe(
      `The AI service's scenarios failed their dry run in the browser: "Buy" step 2: Click button "Buy now": button "Buy now" was not found within 5 s`,
    );
    const kept = await propose([
      answer([
        { name: 'Buy', steps: MISSING },
        { name: 'Pricing', steps: PRICING },
      ]),
    ]);
    expect(kept.map((p) => p.name)).toEqual(['Pricing']);
  });
});
