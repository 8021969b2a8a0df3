// What the consent preload assumes of @duckduckgo/autoconsent's internals, pinned so that an upgrade
// that changes them fails here rather than making consent silently stop working: the compact rule
// layout the build and engine-rules.ts read, the engine class's methods that
// engine.ts wraps or calls (and that the engine calls them through the instance), and the
// messages it listens for. Then runEngine itself, on the real engine in a linkedom document: one
// answer a dialog, reported once, and a round asked for looks at the document as it is.
import {
  type AutoConsentCMPRule,
  type CompactCMPRuleset,
  type ContentScriptMessage,
  decodeRules,
  encodeRules,
  type IndexedCMPRuleset,
} from '@duckduckgo/autoconsent';
import COMPACT_RULES from '@duckduckgo/autoconsent/rules/compact-rules.json';
import { parseHTML } from 'linkedom';
import { beforeAll, describe, expect, it } from 'vitest';
import { CONSENT_STILL_SHOWN, type ConsentReport } from '../../../src/in-page/protocol.js';

// The engine reads the page through globals: one linkedom document for the whole file. Engines of
// earlier tests keep looking in the background, so each test has its own element ids.
const { window, document } = parseHTML('<!doctype html><html><head></head><body><main>An article.</main></body></html>');
Object.assign(window, { top: window, location: new URL('https://news.example/article') });
Object.assign(globalThis, { window, document, location: window.location, MutationObserver: window.MutationObserver });

type Engine = typeof import('@duckduckgo/autoconsent').default;
let AutoConsent: Engine;
let runEngine: typeof import('../../../src/consent/engine/engine.js').runEngine;
beforeAll(async () => {
  AutoConsent = (await import('@duckduckgo/autoconsent')).default;
  runEngine = (await import('../../../src/consent/engine/engine.js')).runEngine;
});

const NO_LOGS = { lifecycle: false, rulesteps: false, detectionsteps: false, evals: false, errors: false, messages: false, waits: false };

/** A dialog rule found by its element, answered by clicking its reject button. */
function dialogRule(id: string): AutoConsentCMPRule {
  return {
    name: `dialog-${id}`,
    detectCmp: [{ exists: `#${id}` }],
    detectPopup: [{ exists: `#${id}` }],
    optIn: [],
    optOut: [{ click: `#${id} .reject` }],
  };
}

/** Draws the dialog `id`: its reject button records the choice and takes the dialog away. */
function drawDialog(id: string, choices: string[]): void {
  document.body.insertAdjacentHTML('beforeend', `<div id="${id}"><p>Cookies?</p><button class="reject">Reject</button></div>`);
  const dialog = document.getElementById(id)!;
  dialog.querySelector('.reject')!.addEventListener('click', () => {
    choices.push('reject');
    dialog.remove();
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `done()` or about 10 s passed. */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !done(); i++) await sleep(10);
}

describe("the package's compact rule layout (read by engine-rules.ts and scripts/consent-rule-split.mjs)", () => {
  const rules = COMPACT_RULES as unknown as IndexedCMPRuleset;

  it('is format 1, the only one its decoder takes', () => {
    expect(rules.v).toBe(1);
    expect(() => decodeRules({ ...rules, v: 2 })).toThrow();
  });

  it('keeps the name at 1, the URL pattern at 3, the detection steps at 6, and an exists step as "e", the index of its selector', () => {
    const rule: AutoConsentCMPRule = {
      name: 'layout-probe',
      runContext: { urlPattern: '^https://layout\\.example/' },
      detectCmp: [{ exists: '#layout-probe' }],
      detectPopup: [{ visible: '#layout-probe' }],
      optIn: [],
      optOut: [{ click: '#layout-probe .reject' }],
    };
    const encoded = encodeRules([rule], null);
    const [compact] = encoded.r;
    expect(compact![1]).toBe('layout-probe');
    expect(compact![3]).toBe('^https://layout\\.example/');
    expect(compact![6]).toEqual([{ e: encoded.s.indexOf('#layout-probe') }]);
    expect(decodeRules(encoded)[0]!.detectCmp).toEqual(rule.detectCmp);
  });

  it('gives the index of generic, frame and site rules the split reads, site rules last', () => {
    const [siteStart, siteEnd] = rules.index.specificRuleRange;
    expect(siteEnd).toBe(rules.r.length);
    expect(rules.index.genericRuleRange[1]).toBe(siteStart);
    expect(rules.r.slice(siteStart).every((rule) => typeof rule[3] === 'string' && rule[3] !== '')).toBe(true);
    expect(rules.r.slice(0, siteStart).every((rule) => rule[3] === '')).toBe(true);
    expect(rules.index.frameStringEnd).toBeGreaterThanOrEqual(rules.index.genericStringEnd);
  });
});

describe('the engine class, as engine.ts drives it', () => {
  it('has the methods it wraps and calls, on its prototype, with their arity', () => {
    const prototype = AutoConsent.prototype as unknown as Record<string, unknown>;
    const arity = (name: string) =>
      typeof prototype[name] === 'function' ? (prototype[name] as (...args: unknown[]) => unknown).length : -1;
    expect({
      findCmp: arity('findCmp'),
      handlePopup: arity('handlePopup'),
      addDeclarativeCMP: arity('addDeclarativeCMP'),
      initialize: arity('initialize'),
    }).toEqual({ findCmp: 1, handlePopup: 1, addDeclarativeCMP: 1, initialize: 2 });
  });

  it('calls findCmp through the instance for each round, the retries counted down, and answers through its handlePopup', async () => {
    const id = 'class-probe';
    const messages: ContentScriptMessage[] = [];
    const engine = new AutoConsent(async (message) => void messages.push(message));
    const rounds: number[] = [];
    const findCmp = engine.findCmp.bind(engine);
    engine.findCmp = (retries: number) => {
      rounds.push(retries);
      // The dialog is drawn after the first round: the engine finds it at its second.
      if (rounds.length === 2) drawDialog(id, []);
      return findCmp(retries);
    };
    const answered: string[] = [];
    const handlePopup = engine.handlePopup.bind(engine);
    engine.handlePopup = (cmp) => {
      answered.push(cmp.name);
      return handlePopup(cmp);
    };
    const added = [...engine.rules];
    engine.initialize(
      { enabled: true, autoAction: 'optOut', isMainWorld: true, enablePrehide: false, detectRetries: 1, logs: NO_LOGS },
      { autoconsent: [dialogRule(id)] },
    );
    expect(engine.rules.length).toBe(added.length + 1);
    await until(() => messages.some((message) => message.type === 'autoconsentDone'));
    expect(rounds).toEqual([1, 0]);
    expect(answered).toEqual([`dialog-${id}`]);
    // The messages engine.ts turns into reports, with the fields it reads.
    const read = messages
      .filter((message) => ['popupFound', 'optOutResult', 'autoconsentDone'].includes(message.type))
      .map((message) => ({ type: message.type, cmp: (message as { cmp?: string }).cmp, result: (message as { result?: boolean }).result }));
    expect(read).toEqual([
      { type: 'popupFound', cmp: `dialog-${id}`, result: undefined },
      { type: 'optOutResult', cmp: `dialog-${id}`, result: true },
      { type: 'autoconsentDone', cmp: `dialog-${id}`, result: undefined },
    ]);
  });

  it('takes a rule given later through addDeclarativeCMP into its next round', async () => {
    const id = 'added-probe';
    drawDialog(id, []);
    const engine = new AutoConsent(async () => undefined);
    engine.initialize(
      { enabled: true, autoAction: 'optOut', isMainWorld: true, enablePrehide: false, detectRetries: 0, logs: NO_LOGS },
      {
        autoconsent: [],
      },
    );
    engine.addDeclarativeCMP(dialogRule(id));
    const found = await engine.findCmp(0);
    expect(found.map((cmp) => cmp.name)).toEqual([`dialog-${id}`]);
    expect(found[0]!.isCosmetic).toBe(false);
    expect(await found[0]!.detectPopup()).toBe(true);
  });
});

describe('runEngine', () => {
  /** The compact rule set of one dialog rule, as the preload gets its rules. */
  const rulesFor = (id: string): CompactCMPRuleset => {
    const { v, s, r } = encodeRules([dialogRule(id)], null);
    return { v, s, r };
  };
  const reportsOf = (payloads: string[]) =>
    payloads.map((payload) => JSON.parse(payload) as ConsentReport).map(({ event, cmp }) => `${event} ${cmp}`);

  it("answers a dialog once and reports it found once, whether the engine's round or an asked one finds it", async () => {
    const id = 'once';
    const choices: string[] = [];
    drawDialog(id, choices);
    const payloads: string[] = [];
    const round = runEngine((payload) => payloads.push(payload), rulesFor(id), document);
    // Asked at once and again while the engine's own first round may find it too.
    const answers = await Promise.all([round(), sleep(5).then(() => round())]);
    expect(answers).toEqual([true, true]);
    await sleep(600);
    expect(choices).toEqual(['reject']);
    expect(reportsOf(payloads)).toEqual([`found dialog-${id}`, `declined dialog-${id}`, `done dialog-${id}`]);
  });

  it('finds nothing and reports nothing on a document without a dialog', async () => {
    const payloads: string[] = [];
    const round = runEngine((payload) => payloads.push(payload), rulesFor('never-drawn'), document);
    expect(await round()).toBe(false);
    expect(payloads).toEqual([]);
  });

  it("looks at the document as it is when asked: a dialog drawn after the engine's first round is answered by the round", async () => {
    const id = 'late';
    const choices: string[] = [];
    const payloads: string[] = [];
    const round = runEngine((payload) => payloads.push(payload), rulesFor(id), document);
    // The engine's first round runs at the first idle moment (a timer of 0 here) and finds nothing;
    // its next is 500 ms later.
    await sleep(50);
    drawDialog(id, choices);
    expect(await round()).toBe(true);
    // Over when the round answers: nothing was left to the engine's next round.
    expect(choices).toEqual(['reject']);
    expect(reportsOf(payloads)).toEqual([`found dialog-${id}`, `declined dialog-${id}`, `done dialog-${id}`]);
  });

  it('says whether a declined dialog still shows: while the page keeps it after the answer, and no more once it is gone', async () => {
    const id = 'closed-later';
    const choices: string[] = [];
    // The page closes this dialog only when told to, as a platform that closes it after a request of its own.
    document.body.insertAdjacentHTML('beforeend', `<div id="${id}"><p>Cookies?</p><button class="reject">Reject</button></div>`);
    const dialog = document.getElementById(id)!;
    dialog.querySelector('.reject')!.addEventListener('click', () => void choices.push('reject'));
    const round = runEngine(() => undefined, rulesFor(id), document);
    expect(await round()).toBe(true);
    expect(choices).toEqual(['reject']);
    expect(await round(CONSENT_STILL_SHOWN)).toBe(true);
    dialog.remove();
    expect(await round(CONSENT_STILL_SHOWN)).toBe(false);
  });

  it('says no dialog shows where it answered none, and asking does not look for one', async () => {
    const id = 'asked-only';
    const choices: string[] = [];
    const payloads: string[] = [];
    const round = runEngine((payload) => payloads.push(payload), rulesFor('never-drawn-either'), document);
    drawDialog(id, choices);
    expect(await round(CONSENT_STILL_SHOWN)).toBe(false);
    expect(choices).toEqual([]);
    expect(payloads).toEqual([]);
    document.getElementById(id)!.remove();
  });
});
