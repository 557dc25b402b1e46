// Hand-written audit results for renderer tests and screenshots: a fictional AI-built shop, with plausible
// numbers (a slow hero image on one page, a late cookie banner shifting another) and hostile text where a
// scanned site controls it. Each is parsed with its schema, so a sample that drifts from the contract fails.
import {
  accessibilityAuditSchema,
  performanceAuditSchema,
  rateMetric,
  type AccessibilityAuditResult,
  type PagePerformance,
  type PerformanceAuditResult,
} from '../../../common/audits';
import type { ProjectEvent } from '../../../common/projects';
import { countByImpact, summariseAccessibility } from '../accessibility';
import { analyseEvents } from '../analytics';
import { summarisePerformance } from '../performance';

const ORIGIN = 'https://vibeshop.example.com';

function perfPage(path: string, v: { ttfb: number; fcp: number; lcp: number; cls: number; load: number; bytes: number; requests: number; lcpElement: string }): PagePerformance {
  return {
    url: `${ORIGIN}${path}`,
    finalUrl: `${ORIGIN}${path}`,
    status: 200,
    ttfbMs: v.ttfb,
    serverMs: Math.round(v.ttfb * 0.6),
    fcpMs: v.fcp,
    lcpMs: v.lcp,
    lcpElement: v.lcpElement,
    cls: v.cls,
    domContentLoadedMs: Math.round(v.load * 0.7),
    loadMs: v.load,
    transferBytes: v.bytes,
    requestCount: v.requests,
    largestRequests: [
      { url: `${ORIGIN}/assets/hero-4k.png`, resourceType: 'image', status: 200, bytes: Math.round(v.bytes * 0.55) },
      { url: `${ORIGIN}/assets/index-B3kq9XzA.js`, resourceType: 'script', status: 200, bytes: Math.round(v.bytes * 0.25) },
      { url: 'https://fonts.gstatic.com/s/inter/v13/UcC73FwrK3iLTeHuS_fvQtMwCp50KnMa1ZL7.woff2', resourceType: 'font', status: 200, bytes: Math.round(v.bytes * 0.08) },
      { url: `${ORIGIN}${path}`, resourceType: 'document', status: 200, bytes: Math.round(v.bytes * 0.02) },
    ],
    ratings: { lcp: rateMetric('lcp', v.lcp), fcp: rateMetric('fcp', v.fcp), cls: rateMetric('cls', v.cls), ttfb: rateMetric('ttfb', v.ttfb) },
  };
}

export function samplePerformance(): PerformanceAuditResult {
  const pages: PagePerformance[] = [
    perfPage('/', { ttfb: 420, fcp: 1_250, lcp: 4_620, cls: 0.02, load: 3_900, bytes: 3_480_000, requests: 62, lcpElement: `${ORIGIN}/assets/hero-4k.png` }),
    perfPage('/products', { ttfb: 380, fcp: 1_100, lcp: 2_310, cls: 0.31, load: 2_700, bytes: 1_920_000, requests: 48, lcpElement: 'div.product-grid' }),
    perfPage('/pricing', { ttfb: 950, fcp: 1_900, lcp: 2_900, cls: 0.12, load: 2_400, bytes: 1_240_000, requests: 35, lcpElement: 'h1' }),
    perfPage('/about"><script>alert(1)</script>', {
      ttfb: 300,
      fcp: 800,
      lcp: 1_200,
      cls: 0,
      load: 1_500,
      bytes: 640_000,
      requests: 21,
      lcpElement: '<img src=x onerror=alert(2)>',
    }),
    {
      ...perfPage('/admin', { ttfb: 0, fcp: 0, lcp: 0, cls: 0, load: 0, bytes: 0, requests: 0, lcpElement: '' }),
      status: 0,
      error: 'The page did not load: net::ERR_BLOCKED_BY_CLIENT at https://vibeshop.example.com/admin',
      ttfbMs: null,
      serverMs: null,
      fcpMs: null,
      lcpMs: null,
      lcpElement: null,
      cls: null,
      domContentLoadedMs: null,
      loadMs: null,
      largestRequests: [],
      ratings: { lcp: null, fcp: null, cls: null, ttfb: null },
    },
  ];
  return performanceAuditSchema.parse({
    kind: 'performance',
    schemaVersion: 1,
    engineVersion: '1.0.0',
    target: `${ORIGIN}/`,
    startedAt: '2025-11-20T14:02:00.000Z',
    finishedAt: '2025-11-20T14:02:09.400Z',
    durationMs: 9_400,
    browser: 'Chromium 156.0.8078.79',
    profile: { width: 1350, height: 940, cache: 'disabled', throttling: 'none' },
    pages,
    summary: summarisePerformance(pages),
    warnings: ['https://vibeshop.example.com/admin: The page did not load: net::ERR_BLOCKED_BY_CLIENT'],
  });
}

export function sampleAccessibility(): AccessibilityAuditResult {
  const home = [
    {
      id: 'image-alt',
      impact: 'critical' as const,
      help: 'Images must have alternative text',
      helpUrl: 'https://dequeuniversity.com/rules/axe/4.14/image-alt?application=axeAPI',
      description: 'Ensure <img> elements have alternative text or a role of none or presentation',
      tags: ['cat.text-alternatives', 'wcag2a', 'wcag111'],
      nodeCount: 2,
      nodes: [
        {
          target: '.hero > img',
          html: '<img src="/assets/hero-4k.png" class="w-full">',
          failureSummary: 'Fix any of the following:\n  Element does not have an alt attribute\n  aria-label attribute does not exist or is empty',
          impact: 'critical' as const,
        },
        {
          target: 'footer img:nth-child(2)',
          html: '<img src="/logo.svg"><script>alert("xss")</script>',
          failureSummary: 'Fix any of the following:\n  Element does not have an alt attribute',
          impact: 'critical' as const,
        },
      ],
    },
    {
      id: 'color-contrast',
      impact: 'serious' as const,
      help: 'Elements must meet minimum color contrast ratio thresholds',
      helpUrl: 'https://dequeuniversity.com/rules/axe/4.14/color-contrast?application=axeAPI',
      description: 'Ensure the contrast between foreground and background colors meets WCAG 2 AA minimum contrast ratio thresholds',
      tags: ['cat.color', 'wcag2aa', 'wcag143'],
      nodeCount: 3,
      nodes: [
        {
          target: '.text-gray-400',
          html: '<p class="text-gray-400">Free shipping on orders over $50</p>',
          failureSummary:
            'Fix any of the following:\n  Element has insufficient color contrast of 2.54 (foreground color: #9ca3af, background color: #ffffff, font size: 10.5pt (14px), font weight: normal). Expected contrast ratio of 4.5:1',
          impact: 'serious' as const,
        },
        {
          target: 'button.bg-indigo-400',
          html: '<button class="bg-indigo-400 text-white">Add to cart</button>',
          failureSummary:
            'Fix any of the following:\n  Element has insufficient color contrast of 2.9 (foreground color: #ffffff, background color: #818cf8). Expected contrast ratio of 4.5:1',
          impact: 'serious' as const,
        },
        {
          target: 'footer > p',
          html: '<p>© 2025 VibeShop</p>',
          failureSummary: 'Fix any of the following:\n  Element has insufficient color contrast of 3.1',
          impact: 'serious' as const,
        },
      ],
    },
    {
      id: 'region',
      impact: 'moderate' as const,
      help: 'All page content should be contained by landmarks',
      helpUrl: 'https://dequeuniversity.com/rules/axe/4.14/region?application=axeAPI',
      description: 'Ensure all page content is contained by landmarks',
      tags: ['cat.keyboard', 'best-practice'],
      nodeCount: 1,
      nodes: [
        {
          target: '#root > div:nth-child(3)',
          html: `<div class="toast">${'x'.repeat(280)}…`,
          failureSummary: 'Fix any of the following:\n  Some page content is not contained by landmarks',
          impact: 'moderate' as const,
        },
      ],
    },
  ];
  const login = [
    {
      id: 'label',
      impact: 'critical' as const,
      help: 'Form elements must have labels',
      helpUrl: 'https://dequeuniversity.com/rules/axe/4.14/label?application=axeAPI',
      description: 'Ensure every form element has a label',
      tags: ['cat.forms', 'wcag2a', 'wcag412'],
      nodeCount: 2,
      nodes: [
        {
          target: 'input[type="email"]',
          html: '<input type="email" placeholder="" class="input">',
          failureSummary: 'Fix any of the following:\n  Element does not have an implicit (wrapped) <label>',
          impact: 'critical' as const,
        },
        {
          target: 'input[type="password"]',
          html: '<input type="password" class="input">',
          failureSummary: 'Fix any of the following:\n  Element does not have an explicit <label>',
          impact: 'critical' as const,
        },
      ],
    },
    {
      id: 'button-name',
      impact: 'critical' as const,
      help: 'Buttons must have discernible text',
      helpUrl: 'https://dequeuniversity.com/rules/axe/4.14/button-name?application=axeAPI',
      description: 'Ensure buttons have discernible text',
      tags: ['cat.name-role-value', 'wcag2a', 'wcag412'],
      nodeCount: 1,
      nodes: [
        {
          target: 'button.icon',
          html: '<button class="icon"><svg viewBox="0 0 24 24"></svg></button>',
          failureSummary: 'Fix any of the following:\n  Element does not have inner text that is visible to screen readers',
          impact: 'critical' as const,
        },
      ],
    },
    {
      id: 'heading-order',
      impact: 'moderate' as const,
      help: 'Heading levels should only increase by one',
      helpUrl: 'https://dequeuniversity.com/rules/axe/4.14/heading-order?application=axeAPI',
      description: 'Ensure the order of headings is semantically correct',
      tags: ['cat.semantics', 'best-practice'],
      nodeCount: 1,
      nodes: [{ target: 'h4', html: '<h4>Welcome back</h4>', failureSummary: 'Fix any of the following:\n  Heading order invalid', impact: 'moderate' as const }],
    },
  ];
  const pages = [
    { url: `${ORIGIN}/`, finalUrl: `${ORIGIN}/`, status: 200, violations: home, counts: countByImpact(home), passes: 31, incomplete: 2 },
    { url: `${ORIGIN}/login`, finalUrl: `${ORIGIN}/login`, status: 200, violations: login, counts: countByImpact(login), passes: 27, incomplete: 1 },
    { url: `${ORIGIN}/about`, finalUrl: `${ORIGIN}/about`, status: 200, violations: [], counts: countByImpact([]), passes: 24, incomplete: 0 },
  ];
  return accessibilityAuditSchema.parse({
    kind: 'accessibility',
    schemaVersion: 1,
    engineVersion: '1.0.0',
    target: `${ORIGIN}/`,
    startedAt: '2025-11-20T14:05:00.000Z',
    finishedAt: '2025-11-20T14:05:04.200Z',
    durationMs: 4_200,
    browser: 'Chromium 156.0.8078.79',
    axeVersion: '4.14.1',
    tags: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'],
    pages,
    summary: summariseAccessibility(pages),
    warnings: [],
  });
}

/** Thirty days of events of a small app, with an error spike, plus hostile text in a URL and an error description. */
export function sampleEvents(): ProjectEvent[] {
  const events: ProjectEvent[] = [];
  const paths = ['/', '/products', '/products/42', '/cart', '/checkout', '/login', '/pricing'];
  let id = 0;
  for (let day = 0; day < 30; day++) {
    const n = 8 + ((day * 7) % 11) + (day === 21 ? 25 : 0);
    for (let i = 0; i < n; i++) {
      const kind = i % 9 === 0 ? 'button_click' : i % 7 === 0 ? 'form_submit' : i % 5 === 0 ? 'api_call' : 'page_view';
      const time = new Date(Date.UTC(2025, 9, 22 + day, 8 + (i % 12), (i * 7) % 60));
      events.push({ id: `e${++id}`, event_name: kind, url: `${ORIGIN}${paths[(i + day) % paths.length]}`, timestamp: time.toISOString(), extra: null });
    }
    if (day === 21 || day % 6 === 0) {
      events.push({
        id: `e${++id}`,
        event_name: 'error',
        url: `${ORIGIN}/checkout`,
        timestamp: new Date(Date.UTC(2025, 9, 22 + day, 19, 30)).toISOString(),
        extra: {
          description: day === 21 ? 'TypeError: Cannot read properties of undefined (reading "total") <script>alert(9)</script>' : 'Stripe checkout session failed',
          status: 500,
        },
      });
    }
  }
  events.push({ id: `e${++id}`, event_name: 'scan_completed', url: `${ORIGIN}/"><img src=x onerror=alert(10)>`, timestamp: '2025-11-18T10:00:00.000Z', extra: null });
  return events;
}

export function sampleAnalytics() {
  return analyseEvents(sampleEvents(), { from: '2025-10-22T00:00:00.000Z', to: '2025-11-20T23:59:59.999Z', target: `${ORIGIN}/`, generatedAt: '2025-11-21T09:00:00.000Z' });
}
