#!/usr/bin/env node
// Bundles the in-page script (src/in-page, with the main-content policy and the markdown serializer it imports) into one
// file per kind of read, build/page-script-<kind>.js: each a function body the Durable Object sends
// to the page as text (src/browser/read/serialize.ts and page-waits.ts import them with `?raw`). The page
// compiles what it is sent on every read, so each kind carries only the code it runs, minified. The
// preload scripts (src/in-page/preload, and the consent engine's src/consent/engine/preload.ts) become build/preload-<name>.js: scripts that run as
// they are in every new document (page-setup.ts); build/consent-rules.json is the consent rule set
// the Durable Object keeps. Run by wrangler before every build (wrangler.toml
// [build]) and by the tests' global setup; the output is not committed.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { asciiOnly } from './ascii-only.mjs';
import { detectionProbes, siteTextIndex, splitRuleSet, splitRulesModule, withRuleComments } from './consent-rule-split.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** The kinds of read, each an entry in src/in-page/scripts/. */
const SCRIPT_KINDS = ['html', 'markdown', 'main-content', 'views', 'wait', 'screenshot', 'second-opinion'];
/** Scripts every new document runs before its own, by name, each an entry under src/. */
const PRELOADS = {
  'in-view': 'in-page/preload/in-view.ts',
  consent: 'consent/engine/preload.ts',
  'socket-guard': 'in-page/preload/socket-guard.ts',
};

const CONSENT_RULES_MODULE = 'page-fetch:consent-rules';

/** autoconsent's compact rule set, as the package ships it. */
function consentRules() {
  return JSON.parse(readFileSync(join(ROOT, 'node_modules/@duckduckgo/autoconsent/rules/compact-rules.json'), 'utf8'));
}

/** Gives the consent preload its rule set, split so a document reads only the rules its URL can run (consent-rule-split.mjs). */
const consentRulesPlugin = {
  name: 'consent-rules',
  setup(builder) {
    builder.onResolve({ filter: new RegExp(`^${CONSENT_RULES_MODULE}$`) }, (args) => ({ path: args.path, namespace: 'consent-rules' }));
    builder.onLoad({ filter: /.*/, namespace: 'consent-rules' }, () => ({ contents: splitRulesModule(), loader: 'js' }));
  },
};

/**
 * One minified browser bundle of `entry` (under src/) written as `outfile` (under
 * build/), after `finish` (the consent rules' comment goes in once minified: comments do not survive
 * that) and ASCII-only: the page compiles it as one-byte text.
 */
async function bundle(entry, outfile, options = {}, finish = (code) => code) {
  const result = await build({
    entryPoints: [join(ROOT, 'src', entry)],
    bundle: true,
    format: 'iife',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    write: false,
    logLevel: 'warning',
    ...options,
  });
  writeFileSync(join(ROOT, 'build', outfile), asciiOnly(finish(result.outputFiles[0].text)));
}

export async function buildPageScript() {
  mkdirSync(join(ROOT, 'build'), { recursive: true });
  const { base, siteTexts, site } = splitRuleSet(consentRules());
  const siteIndex = siteTextIndex(siteTexts);
  const withRules = (code) => withRuleComments(code, { base, siteIndex, probes: detectionProbes(base) });
  await Promise.all([
    // An IIFE assigned to a local: the Durable Object wraps it in `function (request) { … }`.
    ...SCRIPT_KINDS.map((kind) => bundle(`in-page/scripts/${kind}.ts`, `page-script-${kind}.js`, { globalName: 'pageFetchScript' })),
    // Run as they are, in every new document; the consent preload carries its part of the rules.
    ...Object.entries(PRELOADS).map(([name, entry]) =>
      bundle(entry, `preload-${name}.js`, { plugins: [consentRulesPlugin] }, name === 'consent' ? withRules : undefined),
    ),
  ]);
  // The whole split set, for the Durable Object to answer a document that may need site rules
  // (src/consent/site-rules.ts).
  writeFileSync(join(ROOT, 'build', 'consent-rules.json'), JSON.stringify({ base, siteIndex, site }));
}

// As vitest's global setup.
export default buildPageScript;

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildPageScript();
