// The gate the consent engine starts behind (src/consent/engine/gate.ts): what each rule needs of a
// document before it can detect (the build's detectionProbes), and that the gate holds wherever
// one of the package's own rules detects, on real detections of the package's code rules in a
// linkedom document, while a page without a consent platform never starts the engine.
import AutoConsent, { type CompactCMPRule, type IndexedCMPRuleset } from '@duckduckgo/autoconsent';
import COMPACT_RULES from '@duckduckgo/autoconsent/rules/compact-rules.json';
import { parseHTML } from 'linkedom';
import { beforeEach, describe, expect, it } from 'vitest';
import { detectionProbes, splitRuleSet } from '../../../scripts/consent-rule-split.mjs';
import { CODE_RULE_PROBES, consentMayShow, type DetectionProbes, type ProbedDocument } from '../../../src/consent/engine/gate.js';

const ARTICLE =
  '<!doctype html><html><head></head><body><main><h1>News</h1><p>An article.</p></main><div class="footer">Links</div></body></html>';
const { window, document } = parseHTML(ARTICLE);
Object.assign(window, { top: window, location: new URL('https://news.example/article') });
Object.assign(globalThis, { window, document, location: window.location, MutationObserver: window.MutationObserver });
// linkedom has no layout (nothing is fixed in place) and no cookie jar.
Object.assign(globalThis, { getComputedStyle: () => ({ position: 'static' }) });
Object.defineProperty(document, 'cookie', { value: '', writable: true, configurable: true });

const { base } = splitRuleSet(COMPACT_RULES as unknown as IndexedCMPRuleset);
const probes = detectionProbes(base);
const probed = document as unknown as ProbedDocument;
const mayShow = (href = 'https://news.example/article', set: DetectionProbes = probes) => consentMayShow(set, probed, window, href);

/** A compact rule named `name` with `steps` as its detection (the package's layout: name at 1, detection at 6). */
const rule = (name: string, steps: object[]): CompactCMPRule =>
  [1, name, 2, '', 22, [], steps, [], [], [], []] as unknown as CompactCMPRule;

beforeEach(() => {
  document.body.innerHTML = '<main><h1>News</h1><p>An article.</p></main><div class="footer">Links</div>';
  for (const name of ['Cookiebot', '__cmp', 'GDPR_LC']) delete (window as unknown as Record<string, unknown>)[name];
  (document as unknown as { cookie: string }).cookie = '';
});

describe('what the rule set needs of a document (detectionProbes)', () => {
  it('tells a need for every rule the preload carries: none is left always looked at', () => {
    expect(probes.unprobed).toEqual([]);
    expect(probes.selectors.length).toBeGreaterThan(150);
  });

  it("reads a step's element from its index or as written, and a chain by its first selector", () => {
    const set = {
      s: ['#by-index'],
      r: [rule('a', [{ e: 0 }]), rule('b', [{ exists: ['#host', '.inside'] }]), rule('c', [{ visible: '#shown' }])],
    };
    expect(detectionProbes(set).selectors).toEqual(['#by-index', '#host', '#shown']);
  });

  it('skips an optional step, a negated one and a visibility check of none, for the next step that needs something', () => {
    const set = {
      s: [],
      r: [
        rule('optional', [{ exists: '#maybe', optional: true }, { exists: '#then' }]),
        rule('negated', [{ exists: '#absent', negated: true }, { exists: '#present' }]),
        rule('none-visible', [{ visible: '#hidden', check: 'none' }, { exists: '#other' }]),
      ],
    };
    expect(detectionProbes(set).selectors).toEqual(['#then', '#present', '#other']);
  });

  it('reads any step as the needs of its steps together, an evaluation by its name and a cookie text', () => {
    const set = {
      s: ['cmp=1'],
      r: [
        rule('any', [{ any: [{ exists: '#one' }, { eval: 'EVAL_X' }] }]),
        rule('cookie', [{ cc: 0 }]),
        rule('xpath', [{ exists: 'xpath///div[@id="x"]' }]),
      ],
    };
    expect(detectionProbes(set)).toEqual({
      selectors: ['#one'],
      xpaths: ['//div[@id="x"]'],
      snippets: ['EVAL_X'],
      cookies: ['cmp=1'],
      unprobed: [],
    });
  });

  it('gives no probe for selectors the package never matches, and names a rule none of whose steps it can tell', () => {
    // biome-ignore lint/suspicious/noThenProperty: the package's conditional step is written { if, then }.
    const conditional = { if: { exists: '#a' }, then: [{ exists: '#b' }] };
    const set = { s: [], r: [rule('aria', [{ exists: 'aria/Cookies' }]), rule('conditional', [conditional])] };
    expect(detectionProbes(set)).toEqual({ selectors: [], xpaths: [], snippets: [], cookies: [], unprobed: ['conditional'] });
  });
});

describe('the gate (consentMayShow)', () => {
  it('stays shut on a page without a consent platform', () => {
    expect(mayShow()).toBe(false);
  });

  it("opens once a rule's element is in the document, and on a probe of each kind", () => {
    const selector = probes.selectors.find((candidate) => /^#[\w-]+$/.test(candidate))!;
    document.body.insertAdjacentHTML('beforeend', `<div id="${selector.slice(1)}"></div>`);
    expect(mayShow()).toBe(true);
    document.body.innerHTML = '<p>Plain.</p>';
    const kinds: DetectionProbes = { selectors: [], xpaths: [], snippets: [], cookies: ['consent='], unprobed: [] };
    expect(mayShow(undefined, kinds)).toBe(false);
    (document as unknown as { cookie: string }).cookie = 'consent=pending';
    expect(mayShow(undefined, kinds)).toBe(true);
    expect(mayShow(undefined, { ...kinds, cookies: [], snippets: ['EVAL_GDPR_LEGAL_COOKIE_DETECT_CMP'] })).toBe(false);
    (window as unknown as Record<string, unknown>).GDPR_LC = {};
    expect(mayShow(undefined, { ...kinds, cookies: [], snippets: ['EVAL_GDPR_LEGAL_COOKIE_DETECT_CMP'] })).toBe(true);
    expect(mayShow(undefined, { ...kinds, cookies: [], unprobed: ['conditional'] })).toBe(true);
  });

  it('reads cookies it may not read (a sandboxed frame) as none, without throwing', () => {
    const sandboxed = Object.create(probed, {
      cookie: {
        get() {
          throw new Error('SecurityError');
        },
      },
    }) as ProbedDocument;
    const cookieProbe: DetectionProbes = { selectors: [], xpaths: [], snippets: [], cookies: ['consent='], unprobed: [] };
    expect(consentMayShow(cookieProbe, sandboxed, window, 'https://news.example/article')).toBe(false);
  });

  it('reads a selector this browser rejects as no match, without throwing', () => {
    expect(mayShow(undefined, { selectors: ['div:unknown-pseudo(('], xpaths: [], snippets: [], cookies: [], unprobed: [] })).toBe(false);
  });
});

describe("the package's code rules", () => {
  const engine = new AutoConsent(async () => undefined);
  engine.initialize(
    { enabled: true, autoAction: 'optOut', isMainWorld: true, enablePrehide: false, detectRetries: 0, logs: { errors: false } } as never,
    { autoconsent: [] },
  );
  const codeRule = (name: string) =>
    (engine.rules as unknown as { name: string; detectCmp(): Promise<boolean> }[]).find((r) => r.name === name)!;

  it('are the ones the gate has probes for, no more and no fewer', () => {
    expect((engine.rules as unknown as { name: string }[]).map((r) => r.name).sort()).toEqual(Object.keys(CODE_RULE_PROBES).sort());
  });

  it('detect nothing on the plain page, where the gate stays shut', async () => {
    for (const name of Object.keys(CODE_RULE_PROBES)) expect(await codeRule(name).detectCmp(), name).toBe(false);
    expect(mayShow()).toBe(false);
  });

  // Each case makes one code rule's own detection pass; the gate must hold there.
  const detections: [string, () => void, string?][] = [
    ['TrustArc-top', () => document.body.insertAdjacentHTML('beforeend', '<div id="truste-consent-track"></div>')],
    ['Cybotcookiebot', () => Object.assign(window, { Cookiebot: {} })],
    ['Sourcepoint-frame', () => undefined, 'https://ccpa-pm.sp-prod.net/?message_id=1'],
    ['consentmanager.net', () => document.body.insertAdjacentHTML('beforeend', '<div id="cmpbox"></div>')],
    ['consentmanager.net', () => Object.assign(window, { __cmp: () => ({ gdprApplies: true }) })],
    ['Evidon', () => document.body.insertAdjacentHTML('beforeend', '<div id="_evidon_banner"></div>')],
    ['Onetrust', () => document.body.insertAdjacentHTML('beforeend', '<div id="onetrust-banner-sdk"></div>')],
    ['Klaro', () => document.body.insertAdjacentHTML('beforeend', '<div class="klaro"><div class="cookie-notice"></div></div>')],
    ['Uniconsent', () => document.body.insertAdjacentHTML('beforeend', '<div class="unic"><div class="unic-bar"></div></div>')],
    ['Conversant', () => document.body.insertAdjacentHTML('beforeend', '<div class="cmp-root"><div class="cmp-receptacle"></div></div>')],
    ['tiktok.com', () => document.body.insertAdjacentHTML('beforeend', '<tiktok-cookie-banner></tiktok-cookie-banner>')],
    ['tumblr-com', () => document.body.insertAdjacentHTML('beforeend', '<div id="cmp-app-container"></div>')],
    [
      'Admiral',
      () =>
        document.body.insertAdjacentHTML(
          'beforeend',
          '<div><div class="x-Card"><div class="x-Frame"><div class="x-Pills"><button class="Pills__StyledPill">Reject</button></div></div></div></div>',
        ),
    ],
  ];
  for (const [name, draw, href] of detections) {
    it(`${name}: where its detection passes, the gate holds`, async () => {
      draw();
      if (href !== undefined) Object.assign(window, { location: new URL(href) });
      Object.assign(globalThis, { location: window.location });
      try {
        expect(await codeRule(name).detectCmp()).toBe(true);
        expect(mayShow(href)).toBe(true);
      } finally {
        Object.assign(window, { location: new URL('https://news.example/article') });
        Object.assign(globalThis, { location: window.location });
      }
    });
  }

  it("holds on Admiral's notice: a <div> of the body whose text names Admiral", () => {
    document.body.insertAdjacentHTML('beforeend', '<div>Your Privacy · VRM · Powered by Admiral</div>');
    expect(mayShow()).toBe(true);
  });
});
