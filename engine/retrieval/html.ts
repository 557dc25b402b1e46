import { Parser } from 'htmlparser2';
import type { ParsedHtml, ParsedScript } from '../types';

const MAX_INLINE_SCRIPT = 512 * 1024;
const MAX_COMMENT = 2_000;

/** Tags whose URL attribute loads a subresource (for mixed content), with that attribute. */
const SUBRESOURCE_ATTRS: Record<string, string[]> = {
  img: ['src'],
  iframe: ['src'],
  frame: ['src'],
  audio: ['src'],
  video: ['src', 'poster'],
  source: ['src'],
  track: ['src'],
  embed: ['src'],
  object: ['data'],
  script: ['src'],
  link: ['href'],
};

/** Resolves a URL attribute against the page, or undefined for javascript:, data:, mailto: and garbage. */
export function resolveUrl(value: string | undefined, base: string): string | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (!trimmed || /^(javascript|data|mailto|tel|blob|about):/i.test(trimmed)) return undefined;
  try {
    const url = new URL(trimmed, base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    url.hash = '';
    return url.href;
  } catch {
    return undefined;
  }
}

/** Parses an HTML document into what the checks need; tolerant of any markup. */
export function parseHtml(html: string, pageUrl: string): ParsedHtml {
  let base = pageUrl;
  const out: ParsedHtml = {
    links: [],
    scripts: [],
    stylesheets: [],
    subresources: [],
    forms: [],
    comments: [],
    metaHttpEquiv: [],
    metaNames: [],
  };
  let inTitle = false;
  let title = '';
  let script: ParsedScript | undefined;
  let scriptText = '';
  let form: ParsedHtml['forms'][number] | undefined;

  const parser = new Parser(
    {
      onopentag(name, attrs) {
        switch (name) {
          case 'base': {
            const href = resolveUrl(attrs.href, pageUrl);
            if (href) base = href;
            break;
          }
          case 'title':
            inTitle = true;
            break;
          case 'a':
          case 'area': {
            const href = resolveUrl(attrs.href, base);
            if (href) out.links.push(href);
            break;
          }
          case 'script':
            script = { type: attrs.type, integrity: attrs.integrity, crossorigin: attrs.crossorigin };
            if (attrs['data-site'] !== undefined) script.site = attrs['data-site'];
            if (attrs.src !== undefined) script.src = resolveUrl(attrs.src, base);
            scriptText = '';
            break;
          case 'link': {
            const rel = (attrs.rel ?? '').toLowerCase().split(/\s+/);
            const href = resolveUrl(attrs.href, base);
            if (href && rel.includes('stylesheet')) {
              out.stylesheets.push({ href, integrity: attrs.integrity, crossorigin: attrs.crossorigin });
            }
            if (href && (rel.includes('modulepreload') || (rel.includes('preload') && attrs.as === 'script'))) {
              out.scripts.push({ src: href, integrity: attrs.integrity, crossorigin: attrs.crossorigin, type: 'module' });
            }
            break;
          }
          case 'form':
            form = {
              action: resolveUrl(attrs.action, base) ?? base,
              method: (attrs.method ?? 'get').toLowerCase(),
              inputs: [],
            };
            out.forms.push(form);
            if (attrs.action) {
              const action = resolveUrl(attrs.action, base);
              if (action) out.subresources.push({ tag: 'form', url: action });
            }
            break;
          case 'input':
          case 'select':
          case 'textarea':
          case 'button':
            if (form && name !== 'button') {
              form.inputs.push({ name: attrs.name ?? '', type: (attrs.type ?? (name === 'input' ? 'text' : name)).toLowerCase(), value: attrs.value });
            }
            break;
          case 'meta':
            if (attrs['http-equiv'] && attrs.content !== undefined) {
              out.metaHttpEquiv.push({ name: attrs['http-equiv'].toLowerCase(), content: attrs.content });
            } else if (attrs.name && attrs.content !== undefined) {
              out.metaNames.push({ name: attrs.name.toLowerCase(), content: attrs.content });
            }
            break;
        }
        const urlAttrs = SUBRESOURCE_ATTRS[name];
        if (urlAttrs) {
          for (const attr of urlAttrs) {
            const url = resolveUrl(attrs[attr], base);
            if (url) out.subresources.push({ tag: name, url });
          }
        }
      },
      ontext(text) {
        if (inTitle) title += text;
        if (script && scriptText.length < MAX_INLINE_SCRIPT) scriptText += text;
      },
      onclosetag(name) {
        if (name === 'title') inTitle = false;
        if (name === 'form') form = undefined;
        if (name === 'script' && script) {
          if (script.src === undefined) {
            if (scriptText.trim()) out.scripts.push({ ...script, inline: scriptText });
          } else if (script.src) {
            out.scripts.push(script);
          }
          script = undefined;
        }
      },
      oncomment(comment) {
        const text = comment.trim();
        if (text) out.comments.push(text.slice(0, MAX_COMMENT));
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  const cleanTitle = title.replace(/\s+/g, ' ').trim();
  if (cleanTitle) out.title = cleanTitle;
  return out;
}
