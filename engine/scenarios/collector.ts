import type { BrowserContext, Page, Request, Response } from 'playwright-core';
import type { RunEvent } from './types';

/** More than this many console errors or failed requests in one run are not worth keeping. */
const MAX_COLLECTED = 100;
/** Chromium's own favicon request is not the site's doing. */
const BROWSER_OWN = /\/favicon\.ico$/;

/**
 * What the page does while a scenario runs: console errors, failed requests of the website's origin, navigations and
 * API calls, told as RunEvents. Every text passes `redact` first, so no credential reaches events or the result.
 */
export class RunCollector {
  readonly consoleErrors: string[] = [];
  readonly failedRequests: { url: string; method: string; failure: string }[] = [];
  private inFlight = 0;
  private quietSince = performance.now();

  constructor(
    private readonly origin: string,
    private readonly redact: (text: string) => string,
    private readonly onEvent?: (event: RunEvent) => void,
  ) {}

  emit(event: RunEvent): void {
    try {
      this.onEvent?.(event);
    } catch {
      // a listener's failure must not fail the run
    }
  }

  watchContext(context: BrowserContext): void {
    context.on('request', () => this.inFlight++);
    context.on('requestfinished', () => this.settled());
    context.on('requestfailed', (request) => {
      this.settled();
      this.onRequestFailed(request);
    });
    context.on('response', (response) => this.onResponse(response));
  }

  watchPage(page: Page): void {
    page.on('console', (message) => {
      if (message.type() === 'error') this.consoleError(message.text());
    });
    page.on('pageerror', (error) => this.consoleError(error.message));
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) this.emit({ kind: 'page_view', url: this.redact(frame.url()) });
    });
  }

  /** Resolves once no request has been in flight for `quietMs`, or after `maxMs`: late errors and requests get counted. */
  async settle(quietMs = 100, maxMs = 2_000): Promise<void> {
    const started = performance.now();
    while (performance.now() - started < maxMs) {
      if (this.inFlight === 0 && performance.now() - this.quietSince >= quietMs) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  private settled(): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    if (this.inFlight === 0) this.quietSince = performance.now();
  }

  private consoleError(text: string): void {
    const message = this.redact(text.split('\n')[0]!.slice(0, 500));
    if (this.consoleErrors.length < MAX_COLLECTED) this.consoleErrors.push(message);
    this.emit({ kind: 'error', url: '', description: `Console error: ${message}` });
  }

  private sameOrigin(url: string): boolean {
    try {
      return new URL(url).origin === this.origin && !BROWSER_OWN.test(new URL(url).pathname);
    } catch {
      return false;
    }
  }

  private failed(request: Request, failure: string): void {
    const url = this.redact(request.url());
    if (this.failedRequests.length < MAX_COLLECTED) this.failedRequests.push({ url, method: request.method(), failure });
    this.emit({ kind: 'error', url, description: `${request.method()} ${url} failed: ${failure}` });
  }

  private onRequestFailed(request: Request): void {
    const failure = request.failure()?.errorText ?? 'failed';
    const api = request.resourceType() === 'fetch' || request.resourceType() === 'xhr';
    if (api) this.emit({ kind: 'api_call', url: this.redact(request.url()), method: request.method(), status: null });
    // A request the page itself cancelled (it navigated away) is not a failure of the site.
    if (/ERR_ABORTED/.test(failure) || !this.sameOrigin(request.url())) return;
    this.failed(request, failure);
  }

  private onResponse(response: Response): void {
    const request = response.request();
    const type = request.resourceType();
    if (type === 'fetch' || type === 'xhr') this.emit({ kind: 'api_call', url: this.redact(response.url()), method: request.method(), status: response.status() });
    if (response.status() >= 400 && this.sameOrigin(response.url())) this.failed(request, `HTTP ${response.status()}`);
  }
}
