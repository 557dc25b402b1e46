// Content-Security-Policy parsing: policies from headers and <meta>, directive fallback, weaknesses,
// and the combined view the HTTP Observatory scores.
import { headerAll } from '../http/headers';
import type { Exchange, ParsedHtml, Severity } from '../types';

export type CspDelivery = 'header' | 'meta' | 'report-only';

export interface CspPolicy {
  delivery: CspDelivery;
  /** The policy text as served. */
  raw: string;
  /** Directive name (lower-cased) to its source list; the first occurrence of a directive wins, as in browsers. */
  directives: Map<string, string[]>;
  /** Directives that appeared more than once (browsers ignore the repeats). */
  duplicates: string[];
}

/** Directives a <meta> policy may not carry (HTML spec): browsers ignore them there. */
const META_IGNORED = new Set(['frame-ancestors', 'report-uri', 'sandbox']);

/** Parses one serialized policy. */
export function parseCspPolicy(raw: string, delivery: CspDelivery): CspPolicy {
  const directives = new Map<string, string[]>();
  const duplicates: string[] = [];
  for (const part of raw.split(';')) {
    const [name, ...values] = part.trim().split(/\s+/).filter(Boolean);
    if (!name) continue;
    const directive = name.toLowerCase();
    if (directives.has(directive)) {
      duplicates.push(directive);
      continue;
    }
    if (delivery === 'meta' && META_IGNORED.has(directive)) continue;
    directives.set(directive, values);
  }
  return { delivery, raw, directives, duplicates };
}

/** Splits a header value into policies: a comma separates policies within one header field. */
function splitPolicies(value: string): string[] {
  return value
    .split(',')
    .map((policy) => policy.trim())
    .filter(Boolean);
}

/** Every policy a response delivers: enforced headers, report-only headers and <meta http-equiv>. */
export function cspPolicies(exchange: Exchange, html?: ParsedHtml): CspPolicy[] {
  const policies: CspPolicy[] = [];
  for (const value of headerAll(exchange.headers, 'content-security-policy')) {
    for (const raw of splitPolicies(value)) policies.push(parseCspPolicy(raw, 'header'));
  }
  for (const meta of html?.metaHttpEquiv ?? []) {
    if (meta.name.trim() === 'content-security-policy' && meta.content.trim()) {
      policies.push(parseCspPolicy(meta.content.trim(), 'meta'));
    }
  }
  for (const value of headerAll(exchange.headers, 'content-security-policy-report-only')) {
    for (const raw of splitPolicies(value)) policies.push(parseCspPolicy(raw, 'report-only'));
  }
  return policies;
}

/** Policies the browser enforces (report-only ones only report). */
export function enforcedPolicies(policies: readonly CspPolicy[]): CspPolicy[] {
  return policies.filter((policy) => policy.delivery !== 'report-only' && policy.directives.size > 0);
}

/** CSP Level 3 fallback lists: the directive that governs a fetch when the named one is absent. */
const FALLBACKS: Record<string, string[]> = {
  'script-src-elem': ['script-src', 'default-src'],
  'script-src-attr': ['script-src', 'default-src'],
  'style-src-elem': ['style-src', 'default-src'],
  'style-src-attr': ['style-src', 'default-src'],
  'worker-src': ['child-src', 'script-src', 'default-src'],
  'frame-src': ['child-src', 'default-src'],
};
/** Directives that do not fall back to default-src at all. */
const NO_FALLBACK = new Set(['base-uri', 'form-action', 'frame-ancestors', 'sandbox', 'report-uri', 'report-to', 'upgrade-insecure-requests']);

/** The source list that governs `directive`, following the fallback chain; undefined when unrestricted. */
export function effectiveSources(policy: CspPolicy, directive: string): { directive: string; sources: string[] } | undefined {
  const chain = [directive, ...(FALLBACKS[directive] ?? (NO_FALLBACK.has(directive) || directive === 'default-src' ? [] : ['default-src']))];
  for (const name of chain) {
    const sources = policy.directives.get(name);
    if (sources) return { directive: name, sources };
  }
  return undefined;
}

/** 'nonce-…' or 'sha256-…' style sources. */
export function isNonceOrHash(source: string): boolean {
  return /^'(nonce|sha256|sha384|sha512)-/i.test(source);
}

/** Sources that allow (nearly) anything: a wildcard, a bare scheme, or a scheme with a wildcard host. */
export function isBroadSource(source: string): boolean {
  const value = source.toLowerCase();
  return value === '*' || /^[a-z][a-z0-9+.-]*:$/.test(value) || /^[a-z][a-z0-9+.-]*:\/\/\*(\.\*)?\/?$/.test(value);
}

export interface CspWeakness {
  id: 'script-unrestricted' | 'script-unsafe-inline' | 'script-broad' | 'unsafe-eval' | 'object-unrestricted' | 'object-broad' | 'base-uri-missing' | 'frame-ancestors-missing';
  severity: Severity;
  /** What is wrong, in one sentence. */
  message: string;
  /** The directive text that shows it (or the missing directive's name). */
  match: string;
}

function hasKeyword(sources: readonly string[], keyword: string): boolean {
  return sources.some((source) => source.toLowerCase() === keyword);
}

/** Weaknesses of one enforced policy. */
export function cspWeaknesses(policy: CspPolicy): CspWeakness[] {
  const out: CspWeakness[] = [];
  const script = effectiveSources(policy, 'script-src');
  if (!script) {
    out.push({ id: 'script-unrestricted', severity: 'medium', message: 'Neither script-src nor default-src is set, so scripts may load from anywhere.', match: policy.raw });
  } else {
    const text = `${script.directive} ${script.sources.join(' ')}`;
    const nonceOrHash = script.sources.some(isNonceOrHash);
    // With 'strict-dynamic' (and a nonce or hash) browsers ignore host, scheme and 'unsafe-inline' sources.
    const strictDynamic = nonceOrHash && hasKeyword(script.sources, "'strict-dynamic'");
    if (hasKeyword(script.sources, "'unsafe-inline'") && !nonceOrHash && !strictDynamic) {
      out.push({
        id: 'script-unsafe-inline',
        severity: 'medium',
        message: `${script.directive} allows 'unsafe-inline' without a nonce or hash, so injected inline scripts run.`,
        match: text,
      });
    }
    const broad = script.sources.filter(isBroadSource);
    if (broad.length && !strictDynamic) {
      out.push({ id: 'script-broad', severity: 'medium', message: `${script.directive} allows scripts from ${broad.join(', ')}, which any attacker can host.`, match: text });
    }
    if (hasKeyword(script.sources, "'unsafe-eval'")) {
      out.push({ id: 'unsafe-eval', severity: 'low', message: `${script.directive} allows 'unsafe-eval', so strings can be run as code (eval, new Function).`, match: text });
    }
  }
  const object = effectiveSources(policy, 'object-src');
  if (!object) {
    out.push({
      id: 'object-unrestricted',
      severity: 'low',
      message: "Neither object-src nor default-src is set, so plugins (<object>, <embed>) may load from anywhere; set object-src 'none'.",
      match: 'object-src',
    });
  } else {
    const broad = object.sources.filter(isBroadSource);
    if (broad.length) {
      out.push({
        id: 'object-broad',
        severity: 'low',
        message: `${object.directive} allows plugin content from ${broad.join(', ')}.`,
        match: `${object.directive} ${object.sources.join(' ')}`,
      });
    }
  }
  if (!policy.directives.has('base-uri')) {
    out.push({
      id: 'base-uri-missing',
      severity: 'low',
      message: "base-uri is not set (it has no default-src fallback), so an injected <base> tag can redirect relative script URLs; set base-uri 'none' or 'self'.",
      match: 'base-uri',
    });
  }
  if (policy.delivery === 'header' && !policy.directives.has('frame-ancestors')) {
    out.push({
      id: 'frame-ancestors-missing',
      severity: 'info',
      message: 'frame-ancestors is not set, so the policy does not say who may frame the page.',
      match: 'frame-ancestors',
    });
  }
  return out;
}

/**
 * Weaknesses of a set of enforced policies. A resource must pass every policy, so a weakness counts only
 * when every policy that could block it has it (frame-ancestors: every header policy).
 */
export function combinedWeaknesses(policies: readonly CspPolicy[]): Array<CspWeakness & { policy: CspPolicy }> {
  const enforced = enforcedPolicies(policies);
  if (!enforced.length) return [];
  const perPolicy = enforced.map((policy) => ({ policy, weaknesses: cspWeaknesses(policy) }));
  const headerPolicies = perPolicy.filter(({ policy }) => policy.delivery === 'header');
  const out: Array<CspWeakness & { policy: CspPolicy }> = [];
  const ids = new Set(perPolicy.flatMap(({ weaknesses }) => weaknesses.map((weakness) => weakness.id)));
  for (const id of ids) {
    const relevant = id === 'frame-ancestors-missing' ? headerPolicies : perPolicy;
    if (!relevant.length || !relevant.every(({ weaknesses }) => weaknesses.some((weakness) => weakness.id === id))) continue;
    const first = relevant[0]!;
    out.push({ ...first.weaknesses.find((weakness) => weakness.id === id)!, policy: first.policy });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// The HTTP Observatory's view (mdn/mdn-http-observatory, src/analyzer/cspParser.js), reimplemented:
// directives and sources lower-cased; a policy shorter than 6 characters or with a repeated directive
// (other than report-uri/report-to) is invalid; an empty *-src list means 'none'; several policies are
// combined into the sources they share, and a directive that only a later policy sets comes out 'none'.

/** Thrown when the Observatory would call the policy unparseable (result csp-header-invalid). */
export class CspSyntaxError extends Error {}

export interface ObservatoryCsp {
  directives: Map<string, Set<string>>;
  /** A report-uri or report-to directive was repeated (allowed, but flagged). */
  duplicateReporting: boolean;
}

const MIN_POLICY_LENGTH = 'img-src'.length - 1;
const REPEATABLE = new Set(['report-uri', 'report-to']);
const collate = new Intl.Collator('en').compare;

interface TaggedSource {
  source: string;
  policy: number;
  keep: boolean;
}

/** Whether `b` lies within `a` path-wise (a trailing slash in `a` matches everything below it). */
function sourceCovers(a: string, b: string): boolean {
  if (!a) return true;
  if (a === '/' && !b) return true;
  const prefixOnly = a.endsWith('/');
  const left = a.split('/');
  const right = b.split('/');
  if (left.length > right.length || (!prefixOnly && left.length !== right.length)) return false;
  if (prefixOnly) left.pop();
  const decode = (piece: string) => {
    try {
      return decodeURIComponent(piece);
    } catch {
      return piece;
    }
  };
  return left.every((piece, index) => decode(piece) === decode(right[index] ?? ''));
}

/** Combines policies the way the Observatory does; `meta` drops the directives a <meta> cannot carry. */
export function observatoryCsp(policies: readonly string[], meta = false): ObservatoryCsp {
  const cleaned = policies.map((policy) => policy.replace(/[\r\n]/g, '').trim());
  const combined = new Map<string, TaggedSource[]>();
  let duplicateReporting = false;
  for (const [index, policy] of cleaned.entries()) {
    if (!policy || policy.length < MIN_POLICY_LENGTH) throw new CspSyntaxError(`Invalid policy: ${policy}`);
    const seen = new Set<string>();
    for (const part of policy.split(';')) {
      const [name, ...values] = part.trim().split(/\s+/);
      if (!name) continue;
      const directive = name.toLowerCase();
      if (seen.has(directive)) {
        if (!REPEATABLE.has(directive)) throw new CspSyntaxError(`Duplicate directive ${directive} in policy ${index}`);
        duplicateReporting = true;
      }
      seen.add(directive);
      const incoming: TaggedSource[] = values.map((value) => ({ source: value.trim().toLocaleLowerCase(), policy: index, keep: index === 0 }));
      if (!values.length && directive.endsWith('-src')) incoming.push({ source: "'none'", policy: index, keep: index === 0 });
      const list = [...(index === 0 ? [] : (combined.get(directive) ?? [])), ...incoming].sort((a, b) => collate(a.source, b.source));
      for (let i = 1; i < list.length; i++) {
        const current = list[i]!;
        const previous = list[i - 1]!;
        // Within one policy a longer source that starts like the previous one adds nothing.
        if (current.policy === previous.policy && current.source.startsWith(previous.source)) current.keep = false;
        // Across policies a source survives only when the other policy allows it too.
        if (current.policy !== previous.policy && sourceCovers(previous.source, current.source)) current.keep = true;
      }
      const kept = list.filter((source) => source.keep);
      combined.set(directive, kept);
      // With more policies to come, sources of the first one must be confirmed by a later one.
      if (index === 0 && cleaned.length > 1) for (const source of kept) source.keep = false;
    }
  }
  const directives = new Map<string, Set<string>>();
  for (const [directive, sources] of combined) {
    if (meta && META_IGNORED.has(directive)) continue;
    directives.set(directive, new Set(sources.length ? sources.map((source) => source.source) : ["'none'"]));
  }
  return { directives, duplicateReporting };
}
