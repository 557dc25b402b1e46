import { CREDENTIAL_ENV, type Locator, type Step } from '../../common/scenarios';
import { ARIA_ROLES } from './locate';
import { ACTION_TIMEOUT_MS, NAVIGATION_TIMEOUT_MS, describeStep } from './steps';
import { escapeRegExp } from '../escape-regexp';

const str = (value: string) => JSON.stringify(value);

/** Playwright's locator call for a target, in the form Playwright's own code generator writes. */
export function locatorCode(target: Locator): string {
  const exact = 'exact' in target && target.exact !== undefined ? `, exact: ${target.exact}` : '';
  switch (target.by) {
    case 'role': {
      // A role outside Playwright's list still compiles (and finds what the runner finds).
      const role = ARIA_ROLES.includes(target.role) ? str(target.role) : `${str(target.role)} as Parameters<typeof page.getByRole>[0]`;
      const options = [target.name !== undefined ? `name: ${str(target.name)}` : '', exact.slice(2)].filter(Boolean).join(', ');
      return `page.getByRole(${role}${options ? `, { ${options} }` : ''})`;
    }
    case 'label':
      return `page.getByLabel(${str(target.text)}${exact ? `, { ${exact.slice(2)} }` : ''})`;
    case 'placeholder':
      return `page.getByPlaceholder(${str(target.text)}${exact ? `, { ${exact.slice(2)} }` : ''})`;
    case 'test_id':
      return `page.getByTestId(${str(target.id)})`;
    case 'text':
      return `page.getByText(${str(target.text)}${exact ? `, { ${exact.slice(2)} }` : ''})`;
    case 'css':
      return `page.locator(${str(target.selector)})`;
  }
}

/** One step as the idiomatic Playwright statement (web-first `expect` for assertions). */
export function stepCode(step: Step): string {
  switch (step.type) {
    case 'goto':
      return `await page.goto(${str(step.url)});`;
    case 'click':
      return `await ${locatorCode(step.target)}.click();`;
    case 'fill':
      return `await ${locatorCode(step.target)}.fill(${typeof step.value === 'string' ? str(step.value) : step.value.credential});`;
    case 'press':
      return step.target ? `await ${locatorCode(step.target)}.press(${str(step.key)});` : `await page.keyboard.press(${str(step.key)});`;
    case 'select':
      return `await ${locatorCode(step.target)}.selectOption(${str(step.option)});`;
    case 'check':
      return `await ${locatorCode(step.target)}.${step.checked ? 'check' : 'uncheck'}();`;
    case 'hover':
      return `await ${locatorCode(step.target)}.hover();`;
    case 'wait_for':
      return `await ${locatorCode(step.target)}.waitFor({ state: ${str(step.state)}${step.timeout_ms ? `, timeout: ${step.timeout_ms}` : ''} });`;
    case 'expect_visible':
      return `await expect(${locatorCode(step.target)}).toBeVisible();`;
    case 'expect_text':
      return `await expect(${locatorCode(step.target)}).toContainText(${str(step.text)});`;
    case 'expect_url':
      return `await expect(page).toHaveURL(new RegExp(${str(step.pattern)}));`;
    case 'expect_title':
      return `await expect(page).toHaveTitle(new RegExp(${str(escapeRegExp(step.text))}));`;
    case 'expect_no_console_errors':
      return `await page.waitForLoadState('networkidle');\n  expect(consoleErrors, 'console errors').toEqual([]);`;
    case 'expect_no_failed_requests':
      return `await page.waitForLoadState('networkidle');\n  expect(failedRequests, 'failed requests').toEqual([]);`;
  }
}

const CREDENTIAL_HELPER = `/** The test account comes from the environment: it is never written in this file. */
function credential(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(\`Set \${name} to the test account's value before running this test (it is never stored in the file).\`);
  return value;
}
`;

const CONSOLE_LISTENER = `  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(error.message));
`;

const requestListener = (website: string) => `  // Network errors and 4xx/5xx answers of the website's origin (a request cancelled by a navigation is not one).
  const origin = new URL(${str(website)}).origin;
  const sameOrigin = (url: string) => new URL(url).origin === origin && !url.endsWith('/favicon.ico');
  const failedRequests: string[] = [];
  page.on('requestfailed', (request) => {
    const failure = request.failure()?.errorText ?? 'failed';
    if (sameOrigin(request.url()) && !failure.includes('ERR_ABORTED')) failedRequests.push(\`\${request.method()} \${request.url()}: \${failure}\`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400 && sameOrigin(response.url())) failedRequests.push(\`\${response.request().method()} \${response.url()}: HTTP \${response.status()}\`);
  });
`;

/** A complete @playwright/test spec file for the steps, baseURL the website, credentials from the environment. */
export function scenarioCode(scenario: { website: string; steps: Step[]; name: string }): string {
  const { steps } = scenario;
  const uses = (type: Step['type']) => steps.some((step) => step.type === type);
  const credentials = [...new Set(steps.flatMap((step) => (step.type === 'fill' && typeof step.value !== 'string' ? [step.value.credential] : [])))];
  const setup: string[] = [];
  if (uses('expect_no_console_errors')) setup.push(CONSOLE_LISTENER.trimEnd());
  if (uses('expect_no_failed_requests')) setup.push(requestListener(scenario.website).trimEnd());
  // Read up front, so a missing variable fails the test before its first step.
  if (credentials.length) setup.push(credentials.map((name) => `  const ${name} = credential(${str(CREDENTIAL_ENV[name])});`).join('\n'));
  const actions = steps.map((step) => `  // ${describeStep(step).replace(/\s+/g, ' ')}\n  ${stepCode(step)}`).join('\n');
  const body = [...setup, actions].join('\n\n');
  return [
    `// ${scenario.name.replace(/\s+/g, ' ')}: a browser test scenario exported by vibeeval.`,
    `// Run it with: npx playwright test <this file>${credentials.length ? ` (with ${credentials.map((name) => CREDENTIAL_ENV[name]).join(' and ')} set)` : ''}`,
    `import { test, expect } from '@playwright/test';`,
    '',
    `test.use({ baseURL: ${str(scenario.website)}, viewport: { width: 1280, height: 800 }, actionTimeout: ${ACTION_TIMEOUT_MS}, navigationTimeout: ${NAVIGATION_TIMEOUT_MS} });`,
    '',
    ...(credentials.length ? [CREDENTIAL_HELPER] : []),
    `test(${str(scenario.name)}, async ({ page }) => {`,
    body,
    '});',
    '',
  ].join('\n');
}
