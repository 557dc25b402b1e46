// Times the library detector (engine/analysis/js-libraries.ts) over a single-page app's script set: 80 chunks of
// ~50 KB of minified code, a few carrying library banners, as a Vite/webpack build ships them. Prints the median of
// several rounds, so the cost of a bigger advisory file can be compared before and after a refresh:
//   npx esbuild scripts/bench/js-libraries-bench.ts --bundle --platform=node --packages=external --outfile=/tmp/jslb.cjs && node /tmp/jslb.cjs
import { ADVISORIES, detectFromContent, detectFromUrl } from '../../engine/analysis/js-libraries';

const CHUNKS = 80;
const CHUNK_BYTES = 50_000;
const ROUNDS = 7;

/** Deterministic minified-looking code: short identifiers, calls, strings, numbers. */
function chunk(seed: number): string {
  let x = seed * 2654435761;
  const rand = () => ((x = (x * 1103515245 + 12345) >>> 0) % 1000) / 1000;
  const words = [
    'useState',
    'useEffect',
    'createElement',
    'children',
    'className',
    'onClick',
    'fetch',
    'then',
    'props',
    'value',
    'length',
    'push',
    'map',
    'filter',
    'return',
    'function',
    'const',
    'Promise',
    'JSON.parse',
    'document',
  ];
  let out = `(self.webpackChunk_app=self.webpackChunk_app||[]).push([[${seed}],{${seed}:function(e,t,n){"use strict";`;
  while (out.length < CHUNK_BYTES) {
    const w = words[Math.floor(rand() * words.length)]!;
    out += `var ${String.fromCharCode(97 + Math.floor(rand() * 26))}${Math.floor(rand() * 99)}=${w}("${w.slice(0, 4)}-${Math.floor(rand() * 1e6)}",${Math.floor(rand() * 1e4)});`;
  }
  const banners = [
    '/*! jQuery v3.4.1 | (c) JS Foundation and other contributors | jquery.org/license */',
    'var VERSION = "4.17.15";',
    '/*! @license DOMPurify 2.0.8 */',
    '/** @license React v16.13.1 react-dom.production.min.js */',
  ];
  if (seed % 20 === 0) out = banners[(seed / 20) % banners.length]! + out;
  return `${out}}}]);`;
}

const scripts = Array.from({ length: CHUNKS }, (_, i) => ({ url: `https://app.example/assets/chunk-${i.toString(16).padStart(8, '0')}.js`, body: chunk(i) }));
const times: number[] = [];
let found = 0;
for (let round = 0; round < ROUNDS; round++) {
  const t0 = performance.now();
  found = 0;
  for (const s of scripts) found += detectFromUrl(s.url).length + detectFromContent(s.body).length;
  times.push(performance.now() - t0);
}
times.sort((a, b) => a - b);
console.log(
  JSON.stringify({
    libraries: Object.keys(ADVISORIES.libraries).length,
    scripts: CHUNKS,
    bytes: CHUNKS * CHUNK_BYTES,
    found,
    medianMs: Number(times[Math.floor(ROUNDS / 2)]!.toFixed(1)),
    minMs: Number(times[0]!.toFixed(1)),
  }),
);
