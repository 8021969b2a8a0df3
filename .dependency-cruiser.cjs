// The layers of src/ (docs/architecture.md "Layers"), checked in CI by `npm run lint:layers`: imports
// point down (api → browser's index → guard/markdown → shared modules), never back up, and no cycles.
// Type-only imports count too: a type cycle is still a tangle.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    { name: 'no-cycles', severity: 'error', from: {}, to: { circular: true } },
    {
      name: 'api-uses-browser-index-only',
      comment: 'The Worker sees the Durable Object side through src/browser/index.ts alone.',
      severity: 'error',
      from: { path: '^src/api/' },
      to: { path: '^src/browser/', pathNot: '^src/browser/index\\.ts$' },
    },
    {
      name: 'browser-not-above',
      comment: 'The Durable Object side never reaches back into the Worker.',
      severity: 'error',
      from: { path: '^src/browser/' },
      to: { path: '^src/(api/|index\\.ts$|env\\.ts$)' },
    },
    {
      name: 'policies-stand-alone',
      comment: 'guard and markdown are policies both sides use: they import neither side nor each other.',
      severity: 'error',
      from: { path: '^src/(guard|markdown)/' },
      to: { path: '^src/(api/|browser/|index\\.ts$|env\\.ts$)' },
    },
    {
      name: 'markdown-pure',
      comment: 'The serializer walks any DOM: no Workers runtime, no puppeteer, no guard.',
      severity: 'error',
      from: { path: '^src/markdown/' },
      to: { path: '^(src/guard/|cloudflare:|node_modules/@cloudflare/puppeteer)' },
    },
    {
      name: 'pdf-pure',
      comment: 'The PDF conversion reads bytes and writes text: no Worker side, no browser, no guard, no puppeteer.',
      severity: 'error',
      from: { path: '^src/pdf/' },
      to: { path: '^(src/(api|browser|guard)/|src/(index|env)\\.ts$|cloudflare:|node_modules/@cloudflare/puppeteer)' },
    },
    {
      name: 'shared-at-the-bottom',
      comment: 'The small shared modules (src/shared/, errors) import no layer.',
      severity: 'error',
      from: { path: '^src/(shared/|errors\\.ts$)' },
      to: { path: '^src/(api|browser|guard|markdown|pdf)/' },
    },
    {
      name: 'production-code-only',
      comment: 'Nothing in src/ depends on tests or benchmarks.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(test|bench)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '\\?raw$' },
  },
};
