// The "must keep" set: pages written for it (test/fixtures/must-keep/), in eight languages and six
// scripts and six layouts a main-content rule must not cut into, each with the lines its main
// content must hold. Scored by recall: the share of those lines found whole in the answer of
// only_main_content (html), white space not compared. What the benchmarks' F1 does not show: text
// of the article the rules remove.
import { parseHTML } from 'linkedom';
import type { WorkerHandle } from '../../test/e2e/support/worker.js';
import { MUST_KEEP_PAGES } from '../../test/fixtures/must-keep/pages.js';
import { serveSavedPages } from '../e2e/saved-pages.js';

export interface MustKeepResult {
  /** Recall over all lines, and by script and by layout. */
  recall: number;
  byScript: Map<string, { kept: number; lines: number }>;
  byLayout: Map<string, { kept: number; lines: number }>;
  /** Each line that went missing, with its page. */
  missed: { page: string; line: string }[];
  pages: number;
}

const squeezed = (text: string) => text.replace(/\s+/g, '');

/** The text of an html answer. */
const textOf = (html: string) => parseHTML(html).document.documentElement?.textContent ?? '';

function add(map: Map<string, { kept: number; lines: number }>, key: string, kept: number, lines: number): void {
  const row = map.get(key) ?? { kept: 0, lines: 0 };
  row.kept += kept;
  row.lines += lines;
  map.set(key, row);
}

/** Fetches every must-keep page with only_main_content and scores what stayed. */
export async function mustKeepRecall(worker: WorkerHandle): Promise<MustKeepResult> {
  const byName = new Map(MUST_KEEP_PAGES.map((page) => [`${page.name}.html`, page]));
  const served = await serveSavedPages([...byName.keys()], (name) => Buffer.from(byName.get(name)!.html));
  const result: MustKeepResult = { recall: 0, byScript: new Map(), byLayout: new Map(), missed: [], pages: byName.size };
  let kept = 0;
  let lines = 0;
  try {
    for (const [name, url] of served.urls) {
      const page = byName.get(name)!;
      const response = await worker.fetchPage({ url, output_format: 'html', only_main_content: true, wait_event: 'load', raw: true });
      const answer = response.status === 200 ? squeezed(textOf(await response.text())) : '';
      const missing = page.mustKeep.filter((line) => !answer.includes(squeezed(line)));
      for (const line of missing) result.missed.push({ page: page.name, line });
      const got = page.mustKeep.length - missing.length;
      add(result.byScript, page.script, got, page.mustKeep.length);
      add(result.byLayout, page.layout, got, page.mustKeep.length);
      kept += got;
      lines += page.mustKeep.length;
    }
  } finally {
    await served.close();
  }
  result.recall = lines === 0 ? Number.NaN : kept / lines;
  return result;
}

/** The result as markdown lines: recall overall, by script, by layout, and the lines missed. */
export function mustKeepTable(result: MustKeepResult): string[] {
  const rows = (map: Map<string, { kept: number; lines: number }>) =>
    [...map].map(([key, row]) => `| ${key} | ${row.kept} / ${row.lines} | ${(row.kept / row.lines).toFixed(4)} |`);
  return [
    `Recall of the lines that must stay: **${result.recall.toFixed(4)}** over ${result.pages} pages.`,
    '',
    '| script | lines kept | recall |',
    '|---|---|---|',
    ...rows(result.byScript),
    '',
    '| layout | lines kept | recall |',
    '|---|---|---|',
    ...rows(result.byLayout),
    '',
    ...(result.missed.length === 0 ? ['No line missed.'] : ['Lines missed:', '', ...result.missed.map((m) => `- ${m.page}: ${m.line}`)]),
  ];
}
