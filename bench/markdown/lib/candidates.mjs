// The converters compared, each as `convert(html) -> markdown`, set up the way a Cloudflare
// Worker would run them (linkedom as the DOM where one is needed), with their versions.
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { bodyOf, parseDocument } from './dom.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const projectRoot = path.resolve(here, '../../..');
const require = createRequire(import.meta.url);

function versionOf(pkg) {
  // Some packages do not export their package.json: read it from node_modules.
  const file = path.join(projectRoot, 'node_modules', pkg, 'package.json');
  return JSON.parse(fs.readFileSync(file, 'utf8')).version;
}

async function bundle(options, name) {
  const outfile = path.join(os.tmpdir(), `page-fetch-bench-${name}-${process.pid}.mjs`);
  await build({ bundle: true, platform: 'node', format: 'esm', logLevel: 'error', outfile, absWorkingDir: projectRoot, ...options });
  return import(pathToFileURL(outfile).href);
}

/** Ours: src/markdown bundled as the Worker build would include it. */
export async function loadProject() {
  const mod = await bundle({ entryPoints: [path.join(projectRoot, 'src/markdown/index.ts')] }, 'project');
  return {
    name: 'page-fetch',
    version: 'src/markdown (this repository)',
    setup: 'htmlToMarkdown(html): linkedom parse + one rule-table walk',
    convert: (html) => mod.htmlToMarkdown(html),
  };
}

export async function loadPeers(log) {
  const peers = [];
  try {
    const TurndownService = (await import('turndown')).default;
    const { gfm } = await import('@joplin/turndown-plugin-gfm');
    const td = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
    td.use(gfm);
    td.remove(['script', 'style', 'noscript', 'template']);
    peers.push({
      name: 'turndown',
      version: `turndown ${versionOf('turndown')} + @joplin/turndown-plugin-gfm ${versionOf('@joplin/turndown-plugin-gfm')}`,
      setup: "linkedom DOM; atx headings, fenced code, '-' bullets, gfm plugin, script/style/noscript/template removed",
      convert: (html) => td.turndown(bodyOf(parseDocument(html))),
    });
  } catch (e) {
    log(`turndown unavailable: ${e.message}`);
  }
  try {
    const { NodeHtmlMarkdown } = await import('node-html-markdown');
    const nhm = new NodeHtmlMarkdown();
    peers.push({
      name: 'node-html-markdown',
      version: `node-html-markdown ${versionOf('node-html-markdown')}`,
      setup: 'defaults',
      convert: (html) => nhm.translate(html),
    });
  } catch (e) {
    log(`node-html-markdown unavailable: ${e.message}`);
  }
  try {
    // The build a Worker loads: export condition "workerd" (Rust engine compiled to wasm).
    const mod = await bundle(
      {
        stdin: { contents: "export { htmlToMarkdown } from 'mdream';", resolveDir: projectRoot, loader: 'js' },
        conditions: ['workerd'],
        // workerd hands a wasm import over as a compiled WebAssembly.Module: so does this plugin.
        plugins: [
          {
            name: 'wasm-module',
            setup(b) {
              b.onLoad({ filter: /\.wasm$/ }, (args) => ({
                contents: `import fs from 'node:fs'; export default new WebAssembly.Module(fs.readFileSync(${JSON.stringify(args.path)}));`,
                loader: 'js',
              }));
            },
          },
        ],
      },
      'mdream',
    );
    peers.push({
      name: 'mdream',
      version: `mdream ${versionOf('mdream')} (workerd build, wasm)`,
      setup: 'defaults',
      convert: (html) => mod.htmlToMarkdown(html),
    });
  } catch (e) {
    log(`mdream unavailable: ${e.message}`);
  }
  try {
    const { htmlToMarkdown } = await import('@mdream/js');
    peers.push({
      name: 'mdream-js',
      version: `@mdream/js ${versionOf('@mdream/js')}`,
      setup: 'defaults (pure JavaScript engine)',
      convert: (html) => htmlToMarkdown(html),
    });
  } catch (e) {
    log(`@mdream/js unavailable: ${e.message}`);
  }
  return peers;
}

/** Speed reference: linkedom's parse alone, the ceiling for any converter walking a linkedom DOM. */
export const linkedomParse = {
  name: 'linkedom parse only',
  version: `linkedom ${versionOf('linkedom')}`,
  setup: 'parseHTML(html), nothing else',
  reference: true,
  convert: (html) => {
    parseDocument(html);
    return '';
  },
};

export { require };
