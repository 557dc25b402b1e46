// The literal text a regular expression needs, shared by the library detector (engine/analysis/js-libraries.ts,
// whose prefilter skips a content pattern unless that text occurs) and the advisory importer
// (scripts/refresh-js-advisories.mjs, which does not import content patterns without one). Plain JavaScript so the
// importer runs on Node without a build step.

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
