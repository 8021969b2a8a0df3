// Suite 2: real saved pages. Per page the source is parsed once; each candidate's markdown is
// rendered back to HTML by markdown-it (CommonMark + GFM tables/strikethrough, raw HTML on) and
// compared with the source: text F1 (order-aware LCS of tokens), link recall, structure recall
// (headings, list items, innermost table cells, code blocks, images), junk (script/style words
// leaking), markdown validity. Metric definitions follow the README that comes with the
// benchmark's pages (docs/markdown-benchmark.md says where they are read from).
import MarkdownIt from 'markdown-it';
import { analyze, blockText, bodyOf, parseDocument, tokenize, walkVisible } from './dom.mjs';
import { lcsLength } from './lcs.mjs';

export const WEIGHTS = { text: 0.4, links: 0.2, struct: 0.2, junk: 0.1, valid: 0.1 };
export const KINDS = ['headings', 'listItems', 'cells', 'codeBlocks', 'images'];
export const ISSUE_KINDS = [
  'brokenTable',
  'overlongTableRow',
  'unclosedFence',
  'leaked_strongOrEmMarker',
  'leaked_linkSyntax',
  'leaked_entityLiteral',
];

const md = new MarkdownIt('default', { html: true });
md.validateLink = () => true;

const ATTRIBUTES_WITH_WORDS = ['alt', 'title', 'aria-label', 'value', 'placeholder', 'href', 'src', 'content'];

/** Words that occur only in <script>/<style> text: if they show up in the output, they are junk. */
function junkWords(doc) {
  const scriptWords = new Set();
  const otherWords = new Set();
  walkVisible(
    doc.documentElement,
    (node, entering) => {
      if (node.nodeType !== 1) {
        const parent = node.parentNode?.localName ? node.parentNode.localName.toLowerCase() : '';
        const target = parent === 'script' || parent === 'style' ? scriptWords : otherWords;
        for (const t of tokenize(node.data)) target.add(t);
        return true;
      }
      if (entering) {
        for (const name of ATTRIBUTES_WITH_WORDS) {
          const v = node.getAttribute(name);
          if (v) for (const t of tokenize(v)) otherWords.add(t);
        }
      }
      return entering;
    },
    true,
  );
  for (const w of otherWords) scriptWords.delete(w);
  return scriptWords;
}

const LEAKS = {
  leaked_strongOrEmMarker: /\*\*|__/g,
  leaked_linkSyntax: /\]\(/g,
  leaked_entityLiteral: /&(?:[a-z][a-z0-9]{1,31}|#[0-9]{1,7}|#x[0-9a-f]{1,6});/gi,
};

function countMatches(text, re) {
  re.lastIndex = 0;
  let n = 0;
  while (re.exec(text) !== null) n++;
  return n;
}

/** Text of the rendered output outside code (where markup characters are legitimate). */
function textOutsideCode(root) {
  const out = [];
  walkVisible(
    root,
    (node, entering) => {
      if (node.nodeType !== 1) {
        out.push(node.data);
        return true;
      }
      const tag = node.localName.toLowerCase();
      if (tag === 'code' || tag === 'pre') return false;
      out.push('\n');
      return entering;
    },
    true,
  );
  return out.join('');
}

const DELIMITER_ROW = /^ {0,3}\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;
const FENCE = /^\s*(`{3,}|~{3,})/;

function splitCells(line) {
  let s = line.trim();
  if (s.startsWith('|')) s = s.slice(1);
  if (s.endsWith('|') && !s.endsWith('\\|')) s = s.slice(0, -1);
  let cells = 1;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '\\') i++;
    else if (s[i] === '|') cells++;
  }
  return cells;
}

/** Markdown-level issues: tables that did not parse or have overlong rows, unclosed fences. */
function markdownIssues(markdown, renderedTables) {
  const lines = markdown.split('\n');
  let delimiterRows = 0;
  let overlong = 0;
  let fence = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const f = FENCE.exec(line);
    if (fence !== null) {
      if (f && f[1][0] === fence[0] && f[1].length >= fence.length && line.trim() === f[1]) fence = null;
      continue;
    }
    if (f) {
      fence = f[1];
      continue;
    }
    if (i > 0 && line.includes('-') && line.includes('|') && DELIMITER_ROW.test(line) && lines[i - 1].includes('|')) {
      delimiterRows++;
      const header = splitCells(lines[i - 1]);
      for (let k = i + 1; k < lines.length && lines[k].includes('|') && lines[k].trim() !== ''; k++) {
        if (splitCells(lines[k]) > header) overlong++;
      }
    }
  }
  return {
    brokenTable: Math.max(0, delimiterRows - renderedTables),
    overlongTableRow: overlong,
    unclosedFence: fence === null ? 0 : 1,
  };
}

/** Everything about a source page that does not depend on the candidate. */
export function analyzeSource(html) {
  const doc = parseDocument(html);
  const root = doc.documentElement;
  const facts = analyze(root);
  const visible = blockText(root);
  const leakBase = {};
  for (const [k, re] of Object.entries(LEAKS)) leakBase[k] = countMatches(visible, re);
  return { facts, junk: junkWords(doc), leakBase };
}

function multisetRecall(source, output) {
  let total = 0;
  let hit = 0;
  for (const [key, n] of source) {
    total += n;
    hit += Math.min(n, output.get(key) || 0);
  }
  return total === 0 ? null : { hit, total, recall: hit / total };
}

/** Scores one page's markdown against its source facts. */
export function scorePage(src, markdown) {
  const rendered = md.render(markdown);
  const doc = parseDocument(rendered);
  const root = bodyOf(doc);
  const out = analyze(root, true);
  // Text fidelity: tokens mapped to integers, LCS.
  const ids = new Map();
  const idOf = (t) => {
    let id = ids.get(t);
    if (id === undefined) {
      id = ids.size;
      ids.set(t, id);
    }
    return id;
  };
  const a = Int32Array.from(src.facts.tokens, idOf);
  const b = Int32Array.from(out.tokens, idOf);
  const lcs = lcsLength(a, b);
  const recall = a.length === 0 ? 1 : lcs / a.length;
  const precision = b.length === 0 ? (a.length === 0 ? 1 : 0) : lcs / b.length;
  const f1 = recall + precision === 0 ? 0 : (2 * recall * precision) / (recall + precision);
  const links = multisetRecall(src.facts.items.links, out.items.links);
  const structure = {};
  for (const kind of KINDS) structure[kind] = multisetRecall(src.facts.items[kind], out.items[kind]);
  const present = KINDS.filter((k) => structure[k] !== null);
  const structureScore = present.length === 0 ? null : present.reduce((s, k) => s + structure[k].recall, 0) / present.length;
  let junkTokens = 0;
  for (const t of out.tokens) if (src.junk.has(t)) junkTokens++;
  const junk = out.tokens.length === 0 ? 0 : junkTokens / out.tokens.length;
  const issues = markdownIssues(markdown, root.querySelectorAll('table').length);
  const outside = textOutsideCode(root);
  for (const [k, re] of Object.entries(LEAKS)) issues[k] = Math.max(0, countMatches(outside, re) - src.leakBase[k]);
  const issueCount = ISSUE_KINDS.reduce((s, k) => s + (issues[k] > 0 ? 1 : 0), 0);
  return { text: { recall, precision, f1 }, links, structure, structureScore, junk, issues, valid: issueCount === 0 ? 1 : 0 };
}

const mean = (xs) => (xs.length === 0 ? null : xs.reduce((s, x) => s + x, 0) / xs.length);

/** Corpus-level aggregate of per-page results (each term a mean over the pages where defined). */
export function aggregate(perPage) {
  const ok = perPage;
  const text = mean(ok.map((p) => p.text.f1));
  const recall = mean(ok.map((p) => p.text.recall));
  const precision = mean(ok.map((p) => p.text.precision));
  const links = mean(ok.filter((p) => p.links !== null).map((p) => p.links.recall));
  const byKind = {};
  for (const kind of KINDS) {
    const pages = ok.filter((p) => p.structure[kind] !== null);
    byKind[kind] = { recall: mean(pages.map((p) => p.structure[kind].recall)), pages: pages.length };
  }
  const struct = mean(KINDS.filter((k) => byKind[k].recall !== null).map((k) => byKind[k].recall));
  const junk = mean(ok.map((p) => p.junk));
  const valid = mean(ok.map((p) => p.valid));
  const issues = {};
  for (const k of ISSUE_KINDS) issues[k] = ok.reduce((s, p) => s + p.issues[k], 0);
  const score =
    100 *
    (WEIGHTS.text * text +
      WEIGHTS.links * (links ?? 1) +
      WEIGHTS.struct * (struct ?? 1) +
      WEIGHTS.junk * (1 - junk) +
      WEIGHTS.valid * valid);
  return { score, text, recall, precision, links, struct, byKind, junk, valid, issues, errors: ok.filter((p) => p.error).length };
}

/** Scores every candidate on every page; a converter that throws scores 0 on that page. */
export function runPages(candidates, pages, log) {
  const results = {};
  for (const c of candidates) results[c.name] = [];
  pages.forEach((page, i) => {
    const src = analyzeSource(page.html);
    for (const c of candidates) {
      let r;
      try {
        r = scorePage(src, String(c.convert(page.html)));
      } catch (e) {
        r = {
          text: { recall: 0, precision: 0, f1: 0 },
          links: src.facts.items.links.size ? { hit: 0, total: 1, recall: 0 } : null,
          structure: Object.fromEntries(KINDS.map((k) => [k, src.facts.items[k].size ? { hit: 0, total: 1, recall: 0 } : null])),
          structureScore: 0,
          junk: 1,
          issues: Object.fromEntries(ISSUE_KINDS.map((k) => [k, 0])),
          valid: 0,
          error: String(e),
        };
      }
      results[c.name].push({ page: page.name, ...r });
    }
    log(`  page ${i + 1}/${pages.length} ${page.name}`);
  });
  const summary = {};
  for (const c of candidates) summary[c.name] = aggregate(results[c.name]);
  return { summary, perPage: results };
}
