// The layers of src/ (docs/architecture.md "Layers"), checked in CI by `npm run lint:layers`: imports
// point down (api → browser's index → browser → consent → in-page → main-content/markdown/guard/blocked
// → shared modules), never back up, and no cycles.
// Type-only imports count too: a type cycle is still a tangle.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    { name: 'no-cycles', severity: 'error', from: {}, to: { circular: true } },
    {
      name: 'api-uses-browser-index-only',
      comment: 'The Worker sees the Durable Object side (and what it sends into the page) through src/browser/index.ts alone.',
      severity: 'error',
      from: { path: '^src/api/' },
      to: { path: '^src/(browser|consent|in-page|main-content)/', pathNot: '^src/browser/index\\.ts$' },
    },
    {
      name: 'browser-not-above',
      comment: 'The Durable Object side never reaches back into the Worker.',
      severity: 'error',
      from: { path: '^src/browser/' },
      to: { path: '^src/(api/|index\\.ts$|env\\.ts$)' },
    },
    {
      name: 'consent-below-browser',
      comment: 'Consent (the engine the page runs and the Durable Object side that answers it) never reaches back into the fleet or the Worker.',
      severity: 'error',
      from: { path: '^src/consent/' },
      to: { path: '^src/(api/|browser/|index\\.ts$|env\\.ts$)' },
    },
    {
      name: 'in-page-runs-in-the-page',
      comment: 'The in-page script, main content and the consent engine run in the browser: no Workers runtime, no puppeteer, no Durable Object side.',
      severity: 'error',
      from: { path: '^src/(in-page/|main-content/|consent/engine/)' },
      to: { path: '^(src/(api|browser)/|src/(index|env)\\.ts$|cloudflare:|node_modules/@cloudflare/puppeteer)' },
    },
    {
      name: 'in-page-below-consent',
      comment: 'The in-page script is what consent and the fleet send into the page; it imports neither.',
      severity: 'error',
      from: { path: '^src/in-page/' },
      to: { path: '^src/consent/' },
    },
    {
      name: 'policies-stand-alone',
      comment: 'guard, markdown and main content are policies the layers above use: they import no layer above them nor each other.',
      severity: 'error',
      from: { path: '^src/(guard|markdown|main-content)/' },
      to: { path: '^src/(api/|browser/|consent/|in-page/|index\\.ts$|env\\.ts$)' },
    },
    {
      name: 'no-policy-imports-another',
      comment: 'guard, markdown and main content stand side by side.',
      severity: 'error',
      from: { path: '^src/(guard|markdown|main-content)/' },
      to: { path: '^src/(guard|markdown|main-content)/', pathNot: '^src/$1/' },
    },
    {
      name: 'blocked-imports-shared-only',
      comment:
        'The verdict on bot walls is a policy: the browser side judges with it, the in-page read bundles its markers, the Worker names its types. It imports only the small shared modules: no layer, no runtime, no package.',
      severity: 'error',
      from: { path: '^src/blocked/' },
      to: { path: '^(src/(api|browser|consent|in-page|main-content|guard|markdown|pdf)/|src/(index|env|errors)\\.ts$|cloudflare:|node_modules/)' },
    },
    {
      name: 'markdown-pure',
      comment: 'The serializer walks any DOM: no Workers runtime, no puppeteer.',
      severity: 'error',
      from: { path: '^src/markdown/' },
      to: { path: '^(cloudflare:|node_modules/@cloudflare/puppeteer)' },
    },
    {
      name: 'pdf-pure',
      comment: 'The PDF conversion reads bytes and writes text: no Worker side, no browser, no guard, no puppeteer.',
      severity: 'error',
      from: { path: '^src/pdf/' },
      to: { path: '^(src/(api|browser|consent|in-page|main-content|guard)/|src/(index|env)\\.ts$|cloudflare:|node_modules/@cloudflare/puppeteer)' },
    },
    {
      name: 'sites-below-the-worker',
      comment: 'What a site operation obeys (scope, globs, robots, sitemaps) is a policy: no Worker, no browser, no Durable Object side; the guard only.',
      severity: 'error',
      from: { path: '^src/sites/' },
      to: { path: '^(src/(api|browser|consent|in-page|main-content|markdown|pdf|jobs)/|src/(index|env)\\.ts$|cloudflare:|node_modules/@cloudflare/puppeteer)' },
    },
    {
      name: 'jobs-beside-the-worker',
      comment: 'The job engine runs pages through the Worker\'s own fetch (src/api/) and the site policies; the Worker never imports it back (src/index.ts mounts it; what crosses its RPC is src/shared/job-rpc.ts), and it sees the browser side only through the fetch.',
      severity: 'error',
      from: { path: '^src/((api|browser|consent|in-page|main-content|markdown|pdf|guard|sites|shared)/|env\\.ts$)' },
      to: { path: '^src/jobs/' },
    },
    {
      name: 'jobs-use-the-fetch-not-the-browser',
      comment: 'A job\'s page takes the same path as POST /api/fetch: through src/api/fetch-page.ts, never straight to the browser side.',
      severity: 'error',
      from: { path: '^src/jobs/' },
      to: { path: '^src/(browser|consent|in-page|main-content|markdown|pdf)/' },
    },
    {
      name: 'shared-at-the-bottom',
      comment: 'The small shared modules (src/shared/, errors) import no layer.',
      severity: 'error',
      from: { path: '^src/(shared/|errors\\.ts$)' },
      to: { path: '^src/(api|browser|consent|in-page|main-content|guard|markdown|pdf|blocked)/' },
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
