import { describe, expect, it } from 'vitest';
import { humanError } from './steps';

describe('humanError', () => {
  it("keeps the first line of Playwright's message, without its ANSI colours", () => {
    const error = new Error('\u001b[2mexpect(\u001b[22m\u001b[31mlocator\u001b[39m\u001b[2m).toBeVisible()\u001b[22m failed\nCall log:\n  - waiting for getByText');
    const message = humanError({ type: 'expect_text', target: { by: 'text', text: 'Welcome' }, text: 'Welcome' }, error);
    expect(message).toContain('expect(locator).toBeVisible() failed');
    expect(message).not.toContain('\u001b');
    expect(message).not.toContain('Call log');
  });
});
