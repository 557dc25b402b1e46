import { describe, expect, it } from 'vitest';
import { escapeText, html, join, raw, type HtmlValue } from './html-kit';

const HOSTILE = `<script>alert(1)</script>"><img src=x onerror=alert(2)>'&`;
const ESCAPED = '&lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;img src=x onerror=alert(2)&gt;&#39;&amp;';

describe('html tag', () => {
  it('escapes every interpolated string: the five specials, in text and in quoted attributes', () => {
    expect(String(html`<p title="${HOSTILE}">${HOSTILE}</p>`)).toBe(`<p title="${ESCAPED}">${ESCAPED}</p>`);
    expect(escapeText(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });

  it('keeps the literal parts as written and renders numbers as text', () => {
    expect(String(html`<b>&rarr; ${42} / ${0.5}</b>`)).toBe('<b>&rarr; 42 / 0.5</b>');
  });

  it('composes: a nested template goes in as markup, escaped once, however deep', () => {
    const cell = (text: string) => html`<td>${text}</td>`;
    const row = html`<tr>${cell('a & b')}${cell(HOSTILE)}</tr>`;
    expect(String(html`<table>${row}</table>`)).toBe(`<table><tr><td>a &amp; b</td><td>${ESCAPED}</td></tr></table>`);
  });

  it('joins lists (of text, markup and nested lists) with nothing between, each item escaped on its own', () => {
    const items: HtmlValue[] = ['<i>', html`<li>${'&'}</li>`, ['x', html`<br>`]];
    expect(String(html`<ul>${items}</ul>`)).toBe('<ul>&lt;i&gt;<li>&amp;</li>x<br></ul>');
    expect(String(join([html`<p>${'1'}</p>`, '<p>2</p>'], '\n'))).toBe('<p>1</p>\n&lt;p&gt;2&lt;/p&gt;');
    expect(String(join(['a', 'b'], '<hr>'))).toBe('a&lt;hr&gt;b');
  });

  it('renders nothing for null, undefined and false, so optional parts read as conditions', () => {
    const missing: string | null = null;
    expect(String(html`[${missing}${undefined}${false}${missing && html`<b>never</b>`}]`)).toBe('[]');
    expect(String(html`[${0}${''}]`)).toBe('[0]');
  });

  it('takes trusted markup only when marked raw, by name', () => {
    const css = 'a > b { content: "x" }';
    expect(String(html`<style>${raw(css)}</style>`)).toBe(`<style>${css}</style>`);
    expect(String(html`<style>${css}</style>`)).toBe('<style>a &gt; b { content: &quot;x&quot; }</style>');
  });

  it('does not take a look-alike object for markup', () => {
    const fake = { toString: () => '<script>alert(3)</script>' } as unknown as HtmlValue;
    expect(String(html`${fake}`)).toBe('&lt;script&gt;alert(3)&lt;/script&gt;');
  });

  it('keeps unicode as it is (the documents are UTF-8)', () => {
    expect(String(html`${'Ünïcødé · 漢字 · 🙂 · \u202Eevil'}`)).toBe('Ünïcødé · 漢字 · 🙂 · \u202Eevil');
  });
});
