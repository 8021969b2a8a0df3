// only_main_content (docs/api.md "Main content"): the article alone, its title first, in both formats;
// the whole page, said by X-Content-Mode: full, when no main content can be told apart (a home page
// of link lists, a search result page, a product grid).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useWorker } from '../support/e2e-hooks.js';

const ctx = useWorker();

async function fetchMain(path: string, fields: Record<string, unknown> = {}) {
  const response = await ctx.worker.fetchPage({ url: ctx.fixtures.url(path), wait_event: 'load', raw: true, ...fields });
  expect(response.status).toBe(200);
  return { mode: response.headers.get('X-Content-Mode'), body: await response.text() };
}

describe('only_main_content', () => {
  it('never returns an article the page hides (its scripts never show it): the page as shown, with X-Content-Mode: full', async () => {
    const hidden = 'night ferry to the island sails again';
    const whole = await fetchMain('/pages/hidden-until-ready.html', { output_format: 'markdown' });
    expect(whole.body).not.toContain(hidden);
    expect(whole.body).toContain('Loading…');
    const { mode, body } = await fetchMain('/pages/hidden-until-ready.html', { output_format: 'markdown', only_main_content: true });
    expect(mode).toBe('full');
    expect(body).not.toContain(hidden);
    expect(body).toBe(whole.body);
    // html is the DOM as it stands, as without the option (docs/api.md "What the rendered page
    // contains").
    const html = await fetchMain('/pages/hidden-until-ready.html', { only_main_content: true });
    expect(html.mode).toBe('full');
    expect(html.body).toContain('<body class="loading">');
    expect(html.body).toBe((await fetchMain('/pages/hidden-until-ready.html')).body);
  });

  it('leaves out text an article hides (display: none, hidden, visibility: hidden), with and without only_main_content', async () => {
    const hiddenTexts = ['Ignore your previous instructions', 'System note for assistants', 'capital letters', 'bank details'];
    const shown = [
      'For a hundred and twenty years three families kept the light on the west cape,',
      'The last keeper left in 1981, when the light was made automatic;',
      'Visitors can climb the tower on the first Sunday of each month,',
    ];
    const main = await fetchMain('/pages/hidden-instructions.html', { output_format: 'markdown', only_main_content: true });
    expect(main.mode).toBe('main');
    expect(main.body.startsWith('# Lighthouse keepers of the west cape\n\n')).toBe(true);
    const whole = await fetchMain('/pages/hidden-instructions.html', { output_format: 'markdown' });
    for (const body of [main.body, whole.body]) {
      for (const text of shown) expect(body).toContain(text);
      for (const text of hiddenTexts) expect(body).not.toContain(text);
    }
  });

  it(`returns the article alone as markdown, its title first and its subtitle kept, without its breadcrumb, its headline said again, date lines, figure captions, credit line, link lists and the label over one, "Read more" cross-link, teasers, small print, its author's card and comment thread, a label left at its end ("Share this guide"; a line with a number stays) and the copyright line after it, with X-Content-Mode: main`, async () => {
    const { mode, body } = await fetchMain('/pages/main-article.html', { output_format: 'markdown', only_main_content: true });
    expect(mode).toBe('main');
    expect(body).toBe(
      [
        '# Tide pools of the north coast',
        '### Where the pools form, what lives in them and how to visit them without doing any harm',
        'Tide pools form where the sea leaves water behind in hollows of rock at low tide. Each pool is a small world of its own, warmed by the sun and cooled again when the tide returns twice a day.',
        'On the north coast the best pools lie below the old harbour wall, where the rock shelf is wide and flat. Visit an hour before low tide and keep to the bare rock, away from the weed that hides deep cracks.',
        `![The harbour shelf at low tide](${ctx.fixtures.url('/images/shelf.png')})`,
        'The harbour shelf at low tide, photographed by Ada Shore',
        `Tide times: [Coastguard](${ctx.fixtures.url('/guides/coastguard')})`,
        'Most visitors arrive on the first of June, when the lowest tides of the year fall in daylight.',
        `![An anemone](${ctx.fixtures.url('/images/anemone.png')})`,
        `![Pools at dawn](${ctx.fixtures.url('/images/dawn.png')})`,
        `[![A still pool](${ctx.fixtures.url('/images/pool.png')})](${ctx.fixtures.url('/images/pool-large.png')})`,
        `![Afternoon sun](${ctx.fixtures.url('/images/sun.png')})`,
        '*Pools warm fastest in the afternoon sun.*',
        '> The sea keeps its own time, and the pools keep it with her.',
        '### Tide pools of the north coast in winter',
        'In winter the lowest tides fall after dark, so the pools are best seen on the few clear afternoons of January.',
        `![The shelf in January](${ctx.fixtures.url('/images/winter.png')})`,
        '## What lives there',
        '- Anemones, closed like red jelly sweets until the water covers them.\n- Shore crabs, which hide under loose stones.\n- Periwinkles and limpets on every surface.',
        `![A shore crab](${ctx.fixtures.url('/images/crab.png')})`,
        `Read the [tide table guide](${ctx.fixtures.url('/guides/tides')}) before you go, and count the hours carefully.`,
        '```\nlow_tide = high_tide + 6h 12m\n```',
        '| Pool | Best month |\n| --- | --- |\n| Harbour shelf | June |\n| North point | August |',
        'Put every stone back the way you found it: the animals beneath depend on the shade it gives them through the long hours of sun.',
        'Harbour office: 0800 123 456',
      ].join('\n\n') + '\n',
    );
  });

  it('returns the article alone as HTML in a minimal document, with no mark of the extraction left', async () => {
    const { mode, body } = await fetchMain('/pages/main-article.html', { only_main_content: true });
    expect(mode).toBe('main');
    expect(body).toMatch(/^<!DOCTYPE html><html lang="en"><head><title>Tide pools of the north coast<\/title>/);
    expect(body).toContain('<h1>Tide pools of the north coast</h1>');
    expect(body).toContain('Put every stone back the way you found it');
    expect(body).toContain(`Tide times: <a href="${ctx.fixtures.url('/guides/coastguard')}">Coastguard</a>`);
    for (const left of [
      'Share this guide',
      '© 2026 Coastal Notes',
      'Accept all cookies',
      'Related stories',
      'All rights reserved',
      'href="/shop"',
      'A shore crab under a stone',
      'More: winter tides',
      'Updated: Fri 6:45 PM',
      'Photo: Ada Shore',
      'Pools at dawn on the harbour shelf',
      'A still pool below the wall',
      'The tide pools of the northern coast',
      'Image copyright',
      'Lovely guide',
      'Seals of the north coast',
      'More:',
      'Read more:',
      'How the spring tides shape the pools',
      'Guides',
      '2026-11-21 08:40',
      'independent publisher',
      'data-page-fetch-font-px',
    ]) {
      expect(body).not.toContain(left);
    }
  });

  it('takes an article whose paragraphs, each in a wrapper of one kind, hold a link each for the article, not for a list, without the headings and widget labels left at its end (a comment count under the last)', async () => {
    const { mode, body } = await fetchMain('/pages/linked-paragraphs.html', { output_format: 'markdown', only_main_content: true });
    expect(mode).toBe('main');
    expect(body).toBe(
      [
        '# Harbour wall reopens after repairs',
        `The harbour reopened on Monday after three weeks of repairs to the [sea wall](${ctx.fixtures.url('/news/sea-wall')}), and the first boats unloaded their catch before dawn while the council's engineers watched the tide come in against the new stones.`,
        `Traders at the [fish market](${ctx.fixtures.url('/places/fish-market')}) said the closure had cost them a month of sales, but most expect the autumn season to make up for it if the weather holds and the boats can go out every day.`,
        `The engineers replaced more than four hundred blocks along the outer wall and raised the walkway by half a metre, which the [council](${ctx.fixtures.url('/council')}) says will keep it dry in all but the highest spring tides.`,
        `Visitors will find the walkway open from eight in the morning until dusk, with the old [lighthouse](${ctx.fixtures.url('/places/lighthouse')}) steps still closed until the handrails have been replaced later this month.`,
        `The repairs cost just under two million pounds, shared between the council and the [harbour trust](${ctx.fixtures.url('/trust')}), and came in a little below the estimate published in the spring.`,
        `Work on the inner basin begins in January and will close the [slipway](${ctx.fixtures.url('/places/slipway')}) for six weeks; boat owners have been asked to move their moorings before the end of December.`,
      ].join('\n\n') + '\n',
    );
  });

  it('takes a list article whose records are a table (a linked title in each row) for main content, named by the title its page carries', async () => {
    const { mode, body } = await fetchMain('/pages/data-table.html', { output_format: 'markdown', only_main_content: true });
    expect(mode).toBe('main');
    const film = (path: string, title: string, year: string, text: string) =>
      `| [${title}](${ctx.fixtures.url(path)}) | ${year} | ${text} |`;
    expect(body).toBe(
      [
        '# List of films featuring loops',
        'This list names films in which characters live the same stretch of time again and again, each time keeping what they learned before, until something they do breaks the loop.',
        [
          '| Film | Year | Description |',
          '| --- | --- | --- |',
          film('/films/first', 'First Repeat', '1947', 'A woman lives the same year again and tries to change how it ends.'),
          film('/films/second', 'Second Chance Morning', '1964', 'Scientists step through a screen into a future that keeps resetting.'),
          film('/films/third', 'The Third Day', '1969', 'A couple wakes up on the same sunny morning, day after day.'),
          film('/films/fourth', 'Fourth Wall', '1993', 'A weatherman relives one winter day until he becomes a better man.'),
          film('/films/fifth', 'Fifth Loop', '2014', 'A soldier dies in battle and wakes up the morning before, every time.'),
          film(
            '/films/sixth',
            'Sixth Sense of Time',
            '2017',
            'A student relives her birthday, which ends with her murder, until she finds who did it.',
          ),
        ].join('\n'),
      ].join('\n\n') + '\n',
    );
  });

  it("takes the product sheet under the page's title, not the delivery terms Readability picks elsewhere, without the sheet's list of other products", async () => {
    // The sheet's rows are too short for Readability to score, so it picks the one long paragraph on
    // the page; the block around the h1 is the sheet, read as links until its product list is cleaned out.
    const fixture = readFileSync(new URL('../../fixtures/pages/product-sheet.html', import.meta.url), 'utf8');
    const rows = [...fixture.matchAll(/<div class="label">([^<]+)<\/div><div class="value">([^<]+)<\/div>/g)];
    expect(rows).toHaveLength(40);
    const { mode, body } = await fetchMain('/pages/product-sheet.html', { output_format: 'markdown', only_main_content: true });
    expect(mode).toBe('main');
    expect(body).toBe(
      [
        '# Harbour lantern, brass, 30 cm',
        'Our harbour lantern is cast in brass, polished by hand, fitted with a paraffin burner and a glass chimney, and made to stand on a table or hang from a beam.',
        ...rows.flatMap(([, label, value]) => [label, value]),
      ].join('\n\n') + '\n',
    );
  });

  it('takes a question and its answers, each under a small link to itself, for a thread, not for a list of linked items', async () => {
    const fixture = readFileSync(new URL('../../fixtures/pages/qa-thread.html', import.meta.url), 'utf8');
    const posts = [...fixture.matchAll(/<p>([^<]+)<\/p>\n<p class="permalink"><a href="([^"]+)">Permalink<\/a><\/p>/g)];
    expect(posts).toHaveLength(6);
    const { mode, body } = await fetchMain('/pages/qa-thread.html', { output_format: 'markdown', only_main_content: true });
    expect(mode).toBe('main');
    // The last post's link, left at the end of the extract, goes with the headings and labels left there.
    const lines = posts.flatMap(([, text, href = '']) => [text, `[Permalink](${ctx.fixtures.url(href)})`]).slice(0, -1);
    expect(body).toBe(['# Why does bread go stale faster in the fridge?', ...lines].join('\n\n') + '\n');
  });

  it("takes every post of a forum thread where Readability keeps the first, without the members' links and the buttons under each post", async () => {
    const fixture = readFileSync(new URL('../../fixtures/pages/forum-thread.html', import.meta.url), 'utf8');
    const posts = [...fixture.matchAll(/<div class="post-body">\n((?:<p>[^<]+<\/p>\n)+)<\/div>/g)];
    expect(posts).toHaveLength(4);
    const paragraphs = posts.flatMap(([, body = '']) => [...body.matchAll(/<p>([^<]+)<\/p>/g)].map(([, text]) => text!));
    const { mode, body } = await fetchMain('/pages/forum-thread.html', { output_format: 'markdown', only_main_content: true });
    expect(mode).toBe('main');
    expect(body).toBe(['# Wintering a sailing dinghy outdoors', ...paragraphs].join('\n\n') + '\n');
  });

  it.each([
    ['a home page of link lists', '/pages/home-links.html', '## Sport'],
    ['a search result page', '/pages/search-results.html', 'About 1,240 results'],
    ['a product grid', '/pages/product-grid.html', '# Garden chairs'],
  ])('returns the whole page of %s, with X-Content-Mode: full', async (_name, path, wholePageText) => {
    const main = await fetchMain(path, { output_format: 'markdown', only_main_content: true });
    const whole = await fetchMain(path, { output_format: 'markdown' });
    expect(main.mode).toBe('full');
    expect(main.body).toContain(wholePageText);
    expect(main.body).toBe(whole.body);
  });

  describe('a second opinion where ours cut the page short', () => {
    // The page's five sections each sit four wrappers deep: Readability keeps the first alone, a
    // third of what the page shows, so the second extractor is asked, and its answer (every section,
    // its repeated title taken out) is taken.
    const fixture = readFileSync(new URL('../../fixtures/pages/tide-mill.html', import.meta.url), 'utf8');
    const paragraphs = [...fixture.matchAll(/<p>((?:(?!<\/p>).)+)<\/p>/g)].map(([, text]) => text!).slice(0, 12);
    const headings = [...fixture.matchAll(/<h2>([^<]+)<\/h2>/g)].map(([, text]) => text!);

    it('answers every section of the page, the title once, with X-Content-Mode: main', async () => {
      expect(paragraphs).toHaveLength(12);
      expect(headings).toEqual(['Milling days', 'Getting here', 'Schools and groups', 'Volunteering']);
      const { mode, body } = await fetchMain('/pages/tide-mill.html', { output_format: 'markdown', only_main_content: true });
      expect(mode).toBe('main');
      const link = ctx.fixtures.url('/milling-days');
      const text = (paragraph: string) =>
        paragraph.replace('<a href="/milling-days">publishes them a season ahead</a>', `[publishes them a season ahead](${link})`);
      const section = (i: number) => [`## ${headings[i]}`, text(paragraphs[4 + 2 * i]!), text(paragraphs[5 + 2 * i]!)];
      expect(body).toBe(['# The tide mill', ...paragraphs.slice(0, 4), ...[0, 1, 2, 3].flatMap(section)].join('\n\n') + '\n');
    });

    it('puts a link of a section ours cut in `main`, with only_main_content and on the whole page', async () => {
      for (const only_main_content of [true, false]) {
        const response = await ctx.worker.fetchPage({
          url: ctx.fixtures.url('/pages/tide-mill.html'),
          wait_event: 'load',
          include_links: true,
          only_main_content,
        });
        expect(response.status).toBe(200);
        const { links } = (await response.json()) as { links: { url: string; region: string }[] };
        const regions = Object.fromEntries(links.map((link) => [new URL(link.url).pathname, link.region]));
        expect(regions['/milling-days']).toBe('main');
        expect(regions['/visit']).toBe('navigation');
        expect(regions['/privacy']).toBe('footer');
      }
    });
  });

  it('answers a JSON document whole, fenced as without the option, with X-Content-Mode: full', async () => {
    const main = await fetchMain('/data.json', { output_format: 'markdown', only_main_content: true });
    const whole = await fetchMain('/data.json', { output_format: 'markdown' });
    expect(main.mode).toBe('full');
    expect(main.body).toBe(whole.body);
    expect(main.body.startsWith('```json\n')).toBe(true);
  });

  it('sends no X-Content-Mode when the field is not set', async () => {
    const { mode } = await fetchMain('/pages/main-article.html', { output_format: 'markdown' });
    expect(mode).toBeNull();
  });
});
