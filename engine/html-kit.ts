import escapeHtml from 'escape-html';

// HTML that escapes by default: every report, mail and preview page is written with the `html` tag, which escapes
// each interpolated value (text a scanned site, a client or a user controls) unless it is markup the kit made itself
// (a nested html`...`) or markup marked trusted by name with raw(). Escaping is escape-html's (the five specials:
// & < > " ' as &amp; &lt; &gt; &quot; &#39;), so a value is safe in element content and in quoted attribute values.
// It does not make a URL safe to follow: links to site-controlled URLs go through a check of their scheme first.

/** Markup the kit built or was told to trust; only html`...`, raw() and join() make one. */
class Markup {
  constructor(private readonly markup: string) {}

  toString(): string {
    return this.markup;
  }
}

export type { Markup as Html };

/** What a template takes: text (escaped), numbers, kit markup (as it is), nothing (null, undefined, false), lists of these. */
export type HtmlValue = Markup | string | number | null | undefined | false | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (value instanceof Markup) return value.toString();
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

/** The template tag: the literal parts as written, every interpolation escaped unless it is kit markup; lists join. */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Markup {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1]!;
  return new Markup(out);
}

/** Trusted markup put in as it is: only for the product's own constants (a stylesheet, a policy), never for data. */
export function raw(markup: string): Markup {
  return new Markup(markup);
}

/** A list of values with `separator` (escaped too) between them, e.g. sections one per line. */
export function join(values: readonly HtmlValue[], separator: string): Markup {
  return new Markup(values.map(render).join(escapeHtml(separator)));
}

/** One value escaped as text, for the rare place that needs a plain string (a print footer, a test's expectation). */
export function escapeText(value: string | number): string {
  return escapeHtml(String(value));
}
