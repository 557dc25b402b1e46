import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stepsSchema } from '../../common/scenarios';
import { findChromium } from '../browser';
import { startRestlessSite, type RestlessSite } from '../testing/restless-site';
import { startScenarioHarness, type ScenarioHarness } from '../testing/scenario-harness';
import { SCENARIO_SITE_USER, type ScenarioSite } from '../testing/scenario-site';
import { ProposalError } from './errors';
import { proposeScenarios, runScenario, type ScenarioBrowser } from './index';

const chromium = findChromium();
if (chromium.path === null) console.warn(`propose.test.ts skipped: ${chromium.reason}`);
const policy = { allowPrivate: true };

describe.skipIf(chromium.path === null)('proposeScenarios without an AI service', () => {
  let harness: ScenarioHarness;
  let site: ScenarioSite;
  let browser: ScenarioBrowser;
  beforeAll(async () => {
    harness = await startScenarioHarness(chromium.path);
    ({ site, browser } = harness);
  });
  afterAll(() => harness?.close());
  const propose = (credentials: typeof SCENARIO_SITE_USER | null) =>
    proposeScenarios({ website: site.url, instructions: null, credentials, browser: browser.browser, policy, rateLimit: 0, llm: null });

  it('proposes page loads, the main navigation, the form validation and the sign-in, each passing when run', async () => {
    const proposals = await propose(SCENARIO_SITE_USER);
    const names = proposals.map((proposal) => proposal.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'Acme Notes: loads with its title, no console error and no failed request',
        'Pricing - Acme Notes: loads with its title, no console error and no failed request',
        'Contact - Acme Notes: loads with its title, no console error and no failed request',
        'Sign in - Acme Notes: loads with its title, no console error and no failed request',
        'Main navigation: Pricing, Contact, Sign in',
        'Contact - Acme Notes: the form shows "Please enter your email address." when sent empty',
        'Sign in with the test account and land on /dashboard',
      ]),
    );
    // The page that logs an error is proposed without the assertions that would fail today.
    expect(proposals.find((p) => p.name.startsWith('Status'))?.steps).toEqual([
      { type: 'goto', url: '/broken' },
      { type: 'expect_title', text: 'Status - Acme Notes' },
    ]);
    const signIn = proposals.find((p) => p.name.startsWith('Sign in with'))!;
    expect(signIn.steps).toEqual([
      { type: 'goto', url: '/login' },
      { type: 'fill', target: { by: 'role', role: 'textbox', name: 'Email' }, value: { credential: 'username' } },
      { type: 'fill', target: { by: 'label', text: 'Password' }, value: { credential: 'password' } },
      { type: 'click', target: { by: 'role', role: 'button', name: 'Sign in' } },
      { type: 'expect_url', pattern: '/dashboard$' },
      { type: 'expect_visible', target: { by: 'role', role: 'heading', name: 'Dashboard' } },
    ]);
    expect(proposals.find((p) => p.name.startsWith('Contact - Acme Notes: the form'))!.steps).toEqual([
      { type: 'goto', url: '/contact' },
      { type: 'click', target: { by: 'role', role: 'button', name: 'Send message' } },
      { type: 'expect_text', target: { by: 'role', role: 'alert' }, text: 'Please enter your email address.' },
    ]);
    expect(JSON.stringify(proposals)).not.toContain(SCENARIO_SITE_USER.password);
    // Trying the empty contact form sent no write: it has none, and writes are refused while trying.
    expect(site.requests.filter((request) => request.startsWith('POST') && request !== 'POST /login')).toEqual([]);
    for (const proposal of proposals) {
      expect(stepsSchema.safeParse(proposal.steps).success).toBe(true);
      const result = await runScenario({ website: site.url, steps: proposal.steps, credentials: SCENARIO_SITE_USER, browser: browser.browser, policy, rateLimit: 0, trace: false });
      expect(result.error, proposal.name).toBeNull();
    }
  });

  it('proposes no sign-in without credentials', async () => {
    const proposals = await propose(null);
    expect(proposals.some((p) => p.name.startsWith('Sign in with'))).toBe(false);
    expect(proposals.length).toBeGreaterThanOrEqual(5);
  });
});

describe.skipIf(chromium.path === null)('proposeScenarios on pages that navigate away by script', () => {
  let harness: ScenarioHarness;
  let restless: RestlessSite;
  beforeAll(async () => {
    harness = await startScenarioHarness(chromium.path);
    restless = await startRestlessSite();
  });
  afterAll(async () => {
    await restless?.close();
    await harness?.close();
  });
  const propose = (path: string) =>
    proposeScenarios({ website: `${restless.url}${path}`, instructions: null, credentials: null, browser: harness.browser.browser, policy, rateLimit: 0, llm: null });

  it('proposes from where a page that redirects by script on load lands', async () => {
    const proposals = await propose('/');
    expect(proposals.map((p) => p.name)).toContain('Elsewhere: loads with its title, no console error and no failed request');
    for (const proposal of proposals) expect(stepsSchema.safeParse(proposal.steps).success).toBe(true);
  }, 60_000);

  it('says the page would not stay when it keeps navigating', async () => {
    await expect(propose('/restless')).rejects.toThrow(
      new ProposalError(`${restless.url}/restless kept navigating away by script and would not stay long enough to be read, so no scenario could be proposed`),
    );
  }, 60_000);

  it('answers with the proposals it could make, or that the page would not stay, when pages move while being read', async () => {
    // The page moves at different moments of the proposal (while loading, read, clicked, its form sent): each time
    // the answer is proposals or the clear refusal, never Playwright's own navigation error.
    for (const after of [50, 200, 400]) {
      const outcome = await propose(`/drifting?after=${after}`).then(
        (proposals) => `${proposals.length} proposals`,
        (error: Error) => (error instanceof ProposalError ? 'would not stay' : error.message),
      );
      expect(outcome, `after ${after} ms`).toMatch(/^\d+ proposals$|^would not stay$/);
    }
  }, 120_000);
});
