import { beforeEach, describe, expect, it, vi } from 'vitest';

const openExternal = vi.fn(async (_url: string) => undefined);
vi.mock('electron', () => ({ shell: { openExternal: (url: string) => openExternal(url) } }));

const { openExternalSafely, parseMailtoUrl, parseWebUrl } = await import('./shell');
const { isAppUrl } = await import('./app-origin');

describe('parseWebUrl', () => {
  it.each(['https://example.com/', 'http://example.com/path?q=1#x', 'HTTPS://Example.COM', 'https://127.0.0.1:8787/report'])('accepts %s', (url) => {
    expect(parseWebUrl(url)).toBeInstanceOf(URL);
  });

  it.each([
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    'file:///etc/passwd',
    'data:text/html,<script>alert(1)</script>',
    'smb://attacker/share',
    'ms-msdt:/id PCWDiagnostic',
    'vscode://file/etc/passwd',
    'app://vibeeval/dashboard',
    'mailto:someone@example.com',
    '//example.com/no-scheme',
    '/relative/path',
    'https://',
    'not a url',
    '',
    `https://example.com/${'a'.repeat(2100)}`,
  ])('refuses %s', (url) => {
    expect(parseWebUrl(url)).toBeNull();
  });
});

describe('parseMailtoUrl', () => {
  it.each(['mailto:press@vibe-eval.com', 'mailto:affiliates@vibe-eval.com?subject=Affiliate%20application', 'MAILTO:support@vibe-eval.com?body=hi'])('accepts %s', (url) => {
    expect(parseMailtoUrl(url)).toBeInstanceOf(URL);
  });

  it.each([
    'mailto:',
    'mailto:not-an-address',
    'mailto:a@example.com,b@example.com',
    'mailto:a@example.com;b@example.com',
    'mailto:a@example.com?cc=b@example.com',
    'mailto:a@example.com?bcc=b@example.com',
    'mailto:a%20b@example.com',
    'https://example.com/',
    `mailto:a@example.com?subject=${'x'.repeat(2100)}`,
  ])('refuses %s', (url) => {
    expect(parseMailtoUrl(url)).toBeNull();
  });
});

describe('openExternalSafely', () => {
  beforeEach(() => openExternal.mockClear());

  it('opens the normalised http(s) URL and says so', async () => {
    await expect(openExternalSafely('HTTPS://Example.com/a b')).resolves.toBe(true);
    expect(openExternal).toHaveBeenCalledWith('https://example.com/a%20b');
  });

  it('hands a mailto link to the mail app', async () => {
    await expect(openExternalSafely('mailto:press@vibe-eval.com?subject=Press')).resolves.toBe(true);
    expect(openExternal).toHaveBeenCalledWith('mailto:press@vibe-eval.com?subject=Press');
  });

  it('opens nothing for other schemes', async () => {
    await expect(openExternalSafely('file:///etc/passwd')).resolves.toBe(false);
    await expect(openExternalSafely('javascript:alert(1)')).resolves.toBe(false);
    expect(openExternal).not.toHaveBeenCalled();
  });

  it('answers false when the OS cannot open the URL', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    openExternal.mockRejectedValueOnce(new Error('no browser'));
    await expect(openExternalSafely('https://example.com/')).resolves.toBe(false);
    errors.mockRestore();
  });
});

describe('isAppUrl', () => {
  it.each(['app://vibeeval/', 'app://vibeeval', 'app://vibeeval/dashboard?tab=1#x', 'APP://VIBEEVAL/'])('accepts %s', (url) => {
    expect(isAppUrl(url)).toBe(true);
  });

  it.each([
    'app://vibeeval.evil.com/',
    'app://evil/',
    'app://user:pass@vibeeval/',
    'app://vibeeval:8080/',
    'https://vibeeval/',
    'http://127.0.0.1:8787/',
    'file:///vibeeval/',
    'about:blank',
    'garbage',
  ])('refuses %s', (url) => {
    expect(isAppUrl(url)).toBe(false);
  });
});
