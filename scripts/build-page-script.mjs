#!/usr/bin/env node
// Bundles the in-page script (src/browser/in-page, with the markdown serializer it imports) into one
// file per kind of read, build/page-script-<kind>.js: each a function body the Durable Object sends
// to the page as text (src/browser/serialize.ts imports them with `?raw`). The page compiles what it
// is sent on every read, so each kind carries only the code it runs, minified. Run by wrangler before
// every build (wrangler.toml [build]) and by the tests' global setup; the output is not committed.
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** The kinds of read, each an entry in src/browser/in-page/scripts/. */
const SCRIPT_KINDS = ['html', 'markdown', 'main-content'];

export async function buildPageScript() {
  mkdirSync(join(ROOT, 'build'), { recursive: true });
  await Promise.all(
    SCRIPT_KINDS.map((kind) =>
      build({
        entryPoints: [join(ROOT, `src/browser/in-page/scripts/${kind}.ts`)],
        bundle: true,
        // An IIFE assigned to a local: serialize.ts wraps it in `function (request) { … }`.
        format: 'iife',
        globalName: 'pageFetchScript',
        target: 'es2022',
        minify: true,
        legalComments: 'none',
        outfile: join(ROOT, `build/page-script-${kind}.js`),
        logLevel: 'warning',
      }),
    ),
  );
}

// As vitest's global setup.
export default buildPageScript;

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildPageScript();
