// Flat config: type-aware rules for every project, plus import boundaries between processes
// (renderer imports only common/; engine never imports server; common/ stays platform-free).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import regexp from 'eslint-plugin-regexp';

const restrict = (patterns) => ({
  'no-restricted-imports': ['error', { patterns }],
});

export default tseslint.config(
  {
    ignores: [
      'out/**',
      'dist/**',
      'node_modules/**',
      'test-results/**',
      'playwright-report/**',
      'server/db/migrations/**', // Fixture sites are the scanned sites' content (minified bundles written as such), not our code.
      'tests/fixtures/**/*.js',
      'tests/fixtures/**/*.html',
      'engine/**/__fixtures__/**/*.js',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Zod schemas and Fastify handlers return typed promises; an async callback without await is fine.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['**/*.{js,mjs,cjs}'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // CommonJS entry points load modules with require() by nature.
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...restrict([{ group: ['**/server/**', '**/engine/**', '**/electron/**', 'node:*', 'electron'], message: 'The renderer imports only common/.' }]),
    },
  },
  {
    // One dialog component: it keeps a dialog open when a toast is dismissed and lays out every footer alike.
    files: ['renderer/**/*.tsx'],
    ignores: ['renderer/src/ui/app-dialog.tsx'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "JSXOpeningElement[name.object.name='Dialog'][name.property.name='Root']",
          message: 'Build dialogs with AppDialog (renderer/src/ui/app-dialog.tsx), not Dialog.Root.',
        },
      ],
    },
  },
  {
    files: ['common/**/*.ts'],
    rules: restrict([
      { group: ['node:*', 'electron', '**/server/**', '**/engine/**', '**/electron/**', '**/renderer/**'], message: 'common/ imports nothing but zod (and eventsource-parser).' },
    ]),
  },
  {
    files: ['engine/**/*.ts'],
    rules: restrict([{ group: ['**/server/**', '**/electron/**', '**/renderer/**'], message: 'The engine imports only common/.' }]),
  },
  {
    // The engine and the server run patterns over text a scanned site or a client controls (bodies, headers,
    // scripts, cookies, requests): a pattern that backtracks super-linearly lets one page stall the process.
    // These rules refuse such patterns; where one must stay complex it is written linear (bounded repetition, a
    // split scan) with a comment saying why.
    files: ['engine/**/*.{ts,mjs}', 'server/**/*.ts', 'common/**/*.ts'],
    // Tests and their stand-ins run patterns over our own fixtures only; __fixtures__ holds deliberately hostile
    // checks (the check worker's budget tests), never registered.
    ignores: ['**/*.test.ts', '**/testing/**', '**/__fixtures__/**'],
    plugins: { regexp },
    rules: {
      'regexp/no-super-linear-backtracking': ['error', { report: 'potential' }],
      'regexp/no-super-linear-move': ['error', { report: 'potential', ignoreSticky: false, ignorePartial: false }],
      'regexp/no-misleading-capturing-group': 'error',
      'regexp/no-dupe-disjunctions': 'error',
    },
  },
  {
    files: ['electron/**/*.ts', 'preload/**/*.ts'],
    rules: restrict([{ group: ['**/server/**', '**/engine/**', '**/renderer/**'], message: 'electron/ and preload/ import only common/.' }]),
  },
  {
    // Main-process tests may start the real backend through its test harness (as tests/ may import everything):
    // test files never reach the app's bundle, so main itself still imports only common/.
    files: ['electron/**/*.test.ts'],
    rules: restrict([{ regex: '(^|/)(engine|renderer)(/|$)|(^|/)server/(?!testing/)', message: 'electron/ tests import only common/ and server/testing/.' }]),
  },
);
