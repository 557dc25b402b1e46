// How advisories are matched, shared by the library detector (engine/analysis/js-libraries.ts) and the advisory
// importer (scripts/refresh-js-advisories.mjs) so both read versions and patterns alike: the literal text a content
// pattern needs (the detector's prefilter; the importer drops patterns without one) and loose version order.
// Plain JavaScript so the importer runs on Node without a build step.
import semver from 'semver';

/**
 * The longest run of literal characters a pattern requires at top level (outside groups, classes and optional
 * parts), or undefined. Top-level alternation makes any run optional, so it yields undefined.
 */
export function requiredLiteral(pattern) {
  let best = '';
  let run = '';
  let depth = 0;
  const flush = () => {
    if (run.length > best.length) best = run;
    run = '';
  };
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === '\\') {
      const next = pattern[i + 1] ?? '';
      i++;
      if (depth > 0) continue;
      if (/[.\\/*+?()[\]{}|^$"'\-:=,;!<>@#%&~` ]/.test(next)) run += next;
      else flush();
      continue;
    }
    if (ch === '[') {
      // skip the class
      let j = i + 1;
      if (pattern[j] === '^') j++;
      if (pattern[j] === ']') j++;
      while (j < pattern.length && pattern[j] !== ']') j += pattern[j] === '\\' ? 2 : 1;
      i = j;
      if (depth === 0) flush();
      continue;
    }
    if (ch === '(') {
      if (depth === 0) flush();
      depth++;
      continue;
    }
    if (ch === ')') {
      depth = Math.max(0, depth - 1);
      continue;
    }
    if (depth > 0) continue;
    if (ch === '|') return undefined;
    if (ch === '?' || ch === '*') {
      run = run.slice(0, -1);
      flush();
      continue;
    }
    const quantifier = ch === '{' ? /^\{(\d+)(,\d*)?\}/.exec(pattern.slice(i)) : null;
    if (quantifier) {
      if (quantifier[1] === '0') run = run.slice(0, -1);
      flush();
      i += quantifier[0].length - 1;
      continue;
    }
    if (ch === '+' || ch === '.' || ch === '^' || ch === '$') {
      flush();
      continue;
    }
    run += ch;
  }
  flush();
  return best.length >= 3 ? best : undefined;
}

/** Reads versions the way advisories write them (1.9.0b1, 1.5.1.2, 3.0.0-rc.1) as semver plus a fourth part. */
function toLoose(version) {
  const match = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:\.(\d+))?(\D[\s\S]*)?$/.exec(String(version).trim());
  if (!match) return undefined;
  const [, major, minor = '0', patch = '0', fourth, rest = ''] = match;
  const pre = rest
    .replace(/^[-.+]/, '')
    .split(/[.-]/)
    .filter(Boolean)
    .map((part) => part.replace(/[^0-9A-Za-z]/g, ''))
    .filter(Boolean)
    .map((part) => (/^\d+$/.test(part) ? String(Number(part)) : part));
  const core = `${Number(major)}.${Number(minor)}.${Number(patch)}`;
  return { semver: pre.length ? `${core}-${pre.join('.')}` : core, extra: fourth ? Number(fourth) : 0 };
}

/** Compares two library versions the way advisories mean them; undefined when either cannot be read. */
export function compareVersions(a, b) {
  const left = toLoose(a);
  const right = toLoose(b);
  if (!left || !right || !semver.valid(left.semver) || !semver.valid(right.semver)) return undefined;
  const order = semver.compare(left.semver, right.semver);
  return order !== 0 ? order : Math.sign(left.extra - right.extra);
}
