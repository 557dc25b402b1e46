// Import rules over the whole code base (`npm run lint:imports`). ESLint holds the boundaries between processes per
// file (eslint.config.mjs); this holds what one file cannot see: no module reaches itself through its imports,
// type-only imports included (a circle of types is where a circle of code starts).
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Move what both sides need into a module of its own (types.ts, notice.ts, ui/), imported by both.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'common-imports-only-zod',
      severity: 'error',
      comment:
        'common/ is the contract every process shares: platform-free, zod only, and eventsource-parser (platform-free, ' +
        'no dependencies) for the one event-stream reader the desktop and the server share (common/event-stream.ts).',
      from: { path: '^common/', pathNot: '\\.test\\.ts$' },
      to: { dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg', 'npm-unknown', 'core'], pathNot: '^node_modules/(zod|eventsource-parser)/' },
    },
    {
      name: 'server-stays-in-server',
      severity: 'error',
      comment: 'The engine, the desktop shell, preload and the renderer never import the server (their tests may start one).',
      from: { path: '^(engine|electron|preload|renderer)/', pathNot: '\\.test\\.tsx?$' },
      to: { path: '^server/' },
    },
    {
      name: 'features-meet-through-their-index',
      severity: 'error',
      comment:
        "A renderer feature never reaches into another feature's files: what several features use lives in renderer/src/ui/ " +
        '(components, display helpers), renderer/src/api/ (calls) or renderer/src/app/ (the session, services); a widget ' +
        "one feature lends another page (triage's buttons on the project page) is exported by its index.ts.",
      from: { path: '^renderer/src/features/([^/]+)/' },
      to: { path: '^renderer/src/features/', pathNot: ['^renderer/src/features/$1/', '^renderer/src/features/[^/]+/index\\.tsx?$'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(out|dist|test-results|playwright-report)/|__fixtures__/.*\\.js$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.web.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.d.ts', '.js', '.mjs', '.cjs'],
    },
  },
};
