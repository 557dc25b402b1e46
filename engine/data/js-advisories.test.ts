import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareVersions, requiredLiteral, VERSION_PLACEHOLDER } from '../analysis/js-libraries';
import hosts from './malicious-script-hosts.json';
import data from './js-advisories.json';

interface Entry {
  extractors: Record<string, string[] | undefined>;
  vulnerabilities: Array<{
    atOrAbove?: string;
    below: string;
    severity: string;
    cwe: string[];
    identifiers: { summary?: string; CVE?: string[]; githubID?: string };
    info: string[];
  }>;
}
const libraries = data.libraries as unknown as Record<string, Entry>;

describe('js-advisories.json', () => {
  it('documents its source, licence and date', () => {
    expect(data.source.licence).toBe('Apache-2.0');
    expect(data.source.url).toMatch(/^https:\/\/github\.com\/RetireJS\/retire\.js/);
    expect(data.updated).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('covers the libraries the product promises', () => {
    for (const key of [
      'jquery',
      'jquery-ui',
      'jquery-migrate',
      'jquery-validation',
      'bootstrap',
      'angularjs',
      '@angular/core',
      'lodash',
      'underscore.js',
      'moment.js',
      'handlebars',
      'mustache.js',
      'vue',
      'react-dom',
      'DOMPurify',
      'axios',
      'knockout',
      'backbone.js',
      'ember',
      'prototypejs',
      'dojo',
      'tinyMCE',
      'ckeditor',
      'chart.js',
      'select2',
      'jquery.datatables',
      'pdf.js',
      'marked',
      'showdown',
      'highcharts',
      'video.js',
      'plupload',
      'swfobject',
      'easyXDM',
      'YUI',
      'socket.io-client',
      'nextjs',
      'froala',
      'summernote',
      'quill',
      'sweetalert2',
      'ua-parser-js',
    ]) {
      expect(libraries, key).toHaveProperty([key]);
    }
  });

  it('has valid advisories: readable ranges, known severities, well-formed ids and https references', () => {
    for (const [key, entry] of Object.entries(libraries)) {
      for (const vuln of entry.vulnerabilities) {
        const where = `${key} ${vuln.identifiers.summary ?? ''}`;
        expect(['low', 'medium', 'high', 'critical'], where).toContain(vuln.severity);
        expect(compareVersions(vuln.below, '0.0.1'), where).toBe(1);
        if (vuln.atOrAbove) expect(compareVersions(vuln.atOrAbove, vuln.below), where).toBe(-1);
        for (const cve of vuln.identifiers.CVE ?? []) expect(cve, where).toMatch(/^CVE-\d{4}-\d{4,}$/);
        if (vuln.identifiers.githubID) expect(vuln.identifiers.githubID, where).toMatch(/^GHSA(-[23456789cfghjmpqrvwx]{4}){3}$/);
        for (const cwe of vuln.cwe) expect(cwe, where).toMatch(/^CWE-\d+$/);
        for (const url of vuln.info) expect(url, where).toMatch(/^https?:\/\//);
      }
    }
  });

  it('has extractors that compile, capture a version and (for contents) carry a prefilter literal', () => {
    for (const [key, entry] of Object.entries(libraries)) {
      for (const [kind, patterns] of Object.entries(entry.extractors)) {
        for (const pattern of patterns ?? []) {
          const source = pattern.split(VERSION_PLACEHOLDER).join('[0-9][0-9a-zA-Z._\\-]*');
          expect(() => new RegExp(source), `${key} ${pattern}`).not.toThrow();
          expect(new RegExp(`${source}|`).exec('')!.length, `${key} ${pattern} has a capture group`).toBeGreaterThan(1);
          if (kind === 'filecontent') expect(requiredLiteral(source), `${key} ${pattern}`).toBeDefined();
        }
      }
    }
  });
});

describe('malicious-script-hosts.json', () => {
  it('lists bare host names with reasons and a dated source', () => {
    expect(hosts.updated).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(hosts.hosts.map((h) => h.host)).toEqual(
      expect.arrayContaining(['polyfill.io', 'bootcss.com', 'bootcdn.net', 'staticfile.org', 'staticfile.net', 'polyfill.com', 'polyfillcache.com']),
    );
    for (const { host, reason } of hosts.hosts) {
      expect(host).toMatch(/^[a-z0-9.-]+\.[a-z]{2,}$/);
      expect(reason.length).toBeGreaterThan(10);
    }
  });
});

describe('refresh-js-advisories.mjs', () => {
  it('converts Retire.js entries and keeps our curated data', async () => {
    // @ts-expect-error -- plain ES module script without type declarations
    const { convert } = (await import('../../scripts/refresh-js-advisories.mjs')) as {
      convert: (retire: unknown, current: unknown, today: string) => { updated: string; libraries: Record<string, Entry & { name?: string }> };
    };
    const retire = JSON.parse(readFileSync(join(__dirname, '..', 'checks', '__fixtures__', 'retire-jsrepository-sample.json'), 'utf8')) as unknown;
    const next = convert(retire, data, '2030-01-02');
    expect(next.updated).toBe('2030-01-02');
    expect(next.libraries['retire-example']).toBeUndefined();
    expect(next.libraries.jquery?.vulnerabilities.map((v) => v.identifiers.CVE?.[0])).toEqual(['CVE-2099-0001']);
    expect(next.libraries.jquery?.extractors.filecontent).toEqual(expect.arrayContaining([...(libraries.jquery!.extractors.filecontent ?? []), '/\\*! jQuery v(§§version§§) new']));
    expect(next.libraries.vue?.vulnerabilities.some((v) => v.identifiers.summary?.startsWith('Vue 2 reached end of life'))).toBe(true);
    expect(next.libraries.sweetalert2).toEqual(libraries.sweetalert2);
    expect(next.libraries.jquery?.name ?? 'jquery').toBe('jquery');
  });

  it('takes the first line of a summary that is not a heading', async () => {
    // @ts-expect-error -- plain ES module script without type declarations
    const { summaryLine } = (await import('../../scripts/refresh-js-advisories.mjs')) as { summaryLine: (summary: string) => string };
    expect(summaryLine('## Summary\n\nThe image cache had no upper bound.\n\n## Impact\nDisk exhaustion.')).toBe('The image cache had no upper bound.');
    expect(summaryLine('XSS with location.hash\nmore text')).toBe('XSS with location.hash');
    expect(summaryLine('### Impact')).toBe('Impact');
  });
});
