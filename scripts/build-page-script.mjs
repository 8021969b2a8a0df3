#!/usr/bin/env node
// Bundles the in-page script (src/browser/in-page/page-script.ts, with the markdown serializer it
// imports) into build/page-script.js: one function body the Durable Object sends to the page as
// text (src/browser/serialize.ts imports it with `?raw`). Run by wrangler before every build
// (wrangler.toml [build]) and by the tests' global setup; the output is not committed.
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const PAGE_SCRIPT = join(ROOT, 'build/page-script.js');

export async function buildPageScript() {
  mkdirSync(dirname(PAGE_SCRIPT), { recursive: true });
  await build({
    entryPoints: [join(ROOT, 'src/browser/in-page/page-script.ts')],
    bundle: true,
    // An IIFE assigned to a local: serialize.ts wraps it in `function (request) { … }`.
    format: 'iife',
    globalName: 'pageFetchScript',
    target: 'es2022',
    legalComments: 'none',
    outfile: PAGE_SCRIPT,
    logLevel: 'warning',
  });
}

// As vitest's global setup.
export default buildPageScript;

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildPageScript();
