import { existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { startPolicyProxy, type PolicyProxy } from './retrieval/policy-proxy';
import type { AddressPolicy } from './retrieval/address-policy';

export type BrowserLookup = { path: string; source: string } | { path: null; reason: string };

/** Executables in Playwright's browser cache, best first. */
export function playwrightCacheCandidates(): string[] {
  const roots = [
    process.env.PLAYWRIGHT_BROWSERS_PATH,
    process.platform === 'darwin'
      ? join(homedir(), 'Library', 'Caches', 'ms-playwright')
      : process.platform === 'win32'
        ? join(process.env.LOCALAPPDATA ?? join(homedir(), 'AppData', 'Local'), 'ms-playwright')
        : join(homedir(), '.cache', 'ms-playwright'),
  ].filter((root): root is string => Boolean(root) && existsSync(root!));
  const found: string[] = [];
  for (const root of roots) {
    // Headless shells first (chromium_headless_shell-N sorts after chromium-N), newest first within each.
    const rank = (name: string) => (name.includes('headless_shell') ? 0 : 1e9) - Number(/(?<!\d)\d+$/.exec(name)![0]);
    const entries = readdirSync(root).filter((name) => /^chromium(_headless_shell)?-\d+$/.test(name));
    for (const entry of entries.sort((a, b) => rank(a) - rank(b))) {
      for (const rel of [
        ['chrome-linux', 'chrome'],
        ['chrome-linux64', 'chrome'],
        ['chrome-headless-shell-linux64', 'chrome-headless-shell'],
        ['chrome-headless-shell-mac-arm64', 'chrome-headless-shell'],
        ['chrome-headless-shell-mac-x64', 'chrome-headless-shell'],
        ['chrome-headless-shell-win64', 'chrome-headless-shell.exe'],
        ['chrome-mac', 'Chromium.app', 'Contents', 'MacOS', 'Chromium'],
        ['chrome-win', 'chrome.exe'],
        ['chrome-win64', 'chrome.exe'],
      ]) {
        found.push(join(root, entry, ...rel));
      }
    }
  }
  return found;
}

function systemCandidates(): string[] {
  switch (process.platform) {
    case 'darwin':
      return [
        '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
        '/Applications/Chromium.app/Contents/MacOS/Chromium',
        '/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge',
      ];
    case 'win32': {
      const roots = [process.env['PROGRAMFILES'], process.env['PROGRAMFILES(X86)'], process.env.LOCALAPPDATA].filter(Boolean) as string[];
      return roots.flatMap((root) => [
        join(root, 'Google', 'Chrome', 'Application', 'chrome.exe'),
        join(root, 'Microsoft', 'Edge', 'Application', 'msedge.exe'),
        join(root, 'Chromium', 'Application', 'chrome.exe'),
      ]);
    }
    default:
      return [
        // Chromium's headless shell first (Debian/Ubuntu package chromium-headless-shell): the same engine without the
        // desktop browser around it, what Playwright itself runs headless. On a 2-core machine a 6-step scenario
        // takes a third of the time it takes in the full browser's headless mode, and a context half the memory.
        '/usr/lib/chromium/chromium-headless-shell',
        '/usr/bin/chromium-headless-shell',
        '/usr/bin/chromium',
        '/usr/bin/chromium-browser',
        '/usr/bin/google-chrome',
        '/usr/bin/google-chrome-stable',
        '/usr/bin/microsoft-edge',
        '/snap/bin/chromium',
      ];
  }
}

/**
 * Finds a Chromium-family browser for headless work: VIBEEVAL_CHROMIUM, then the system's Chromium headless shell,
 * Chromium, Chrome or Edge, then Playwright's cache (its headless shells first).
 */
export function findChromium(env: NodeJS.ProcessEnv = process.env): BrowserLookup {
  const configured = env.VIBEEVAL_CHROMIUM;
  if (configured) {
    return existsSync(configured) ? { path: configured, source: 'VIBEEVAL_CHROMIUM' } : { path: null, reason: `VIBEEVAL_CHROMIUM points to ${configured}, which does not exist` };
  }
  for (const path of systemCandidates()) if (existsSync(path)) return { path, source: 'system' };
  for (const path of playwrightCacheCandidates()) if (existsSync(path)) return { path, source: 'playwright cache' };
  return {
    path: null,
    reason: 'no Chromium, Chrome or Edge was found (install one, or set VIBEEVAL_CHROMIUM to its executable)',
  };
}

/** Where the browser sends all its traffic, and the credentials that proxy wants. */
export interface BrowserProxy {
  server: string;
  username: string;
  password: string;
}

/**
 * Flags for a browser whose every connection must go through its proxy. Chromium sends loopback addresses
 * directly unless told otherwise; QUIC, WebTransport (HTTP/3) and WebRTC's UDP do not use an HTTP proxy at all.
 */
const PROXIED_ARGS = [
  '--proxy-bypass-list=<-loopback>',
  '--disable-quic',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--dns-prefetch-disable',
  '--disable-background-networking',
];

/**
 * Launches the found browser headless; root needs --no-sandbox (Chromium refuses its sandbox as root).
 * With a proxy, every connection a page can open goes through it (see PROXIED_ARGS).
 */
export async function launchChromium(executablePath: string, options: { proxy?: BrowserProxy } = {}): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  const args = ['--disable-dev-shm-usage', '--disable-gpu', '--no-first-run', '--no-default-browser-check', '--mute-audio'];
  if (typeof process.getuid === 'function' && process.getuid() === 0) args.push('--no-sandbox');
  if (!options.proxy) return chromium.launch({ executablePath, headless: true, args });
  const { server, username, password } = options.proxy;
  // bypass '<-loopback>' also keeps Playwright from adding its own bypass rules.
  return chromium.launch({ executablePath, headless: true, args: [...args, ...PROXIED_ARGS], proxy: { server, username, password, bypass: '<-loopback>' } });
}

/**
 * Launches the browser behind a proxy of its own that applies the address policy to every connection the
 * browser opens (navigations, redirects, subresources, WebSockets, beacons, prefetches); the proxy stops
 * when the browser closes.
 */
export async function launchPolicedChromium(executablePath: string, policy: AddressPolicy): Promise<{ browser: Browser; proxy: PolicyProxy }> {
  const proxy = await startPolicyProxy(policy);
  try {
    const browser = await launchChromium(executablePath, { proxy });
    browser.on('disconnected', () => void proxy.close());
    return { browser, proxy };
  } catch (error) {
    await proxy.close();
    throw error;
  }
}
