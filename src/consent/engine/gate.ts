// Whether a document may hold a dialog the consent engine answers: the engine (engine.ts) starts in
// a document only once this holds, so a page without a consent platform pays for a few probes at
// the engine's own moments rather than for the rule set read, the engine built and its detection
// rounds run (docs/consent.md "Cost"). It must never be false where the engine would find a
// dialog: each probe is something a rule's detection cannot pass without. The declarative rules'
// probes are read from the rule set at build time (scripts/consent-rule-split.mjs,
// detectionProbes); the package's rules written as code (its dynamicCMPs) are read from its source
// here, their names and their detections pinned by test/unit/consent/gate.test.ts.
import { evalSnippets } from '@duckduckgo/autoconsent';

/** What the declarative rules need of a document before one of them can detect (detectionProbes). */
export interface DetectionProbes {
  /** CSS selectors, one of which must match an element. */
  readonly selectors: readonly string[];
  /** XPath expressions (the package's `xpath/` selectors), one of which must match a node. */
  readonly xpaths: readonly string[];
  /** Names of the package's evaluations (evalSnippets), one of which must return true. */
  readonly snippets: readonly string[];
  /** Texts one of which the document's cookies must hold. */
  readonly cookies: readonly string[];
  /** Rules none of whose steps could be told: where one runs, the document is always looked at. */
  readonly unprobed: readonly string[];
}

/** What one of the package's code rules needs before its detectCmp can pass (read from its source). */
interface CodeRuleProbe {
  readonly selectors?: readonly string[];
  /** Properties of the page's window the rule's evaluation reads. */
  readonly globals?: readonly string[];
  /** A text one of the body's `<div>` children must hold (lower case). */
  readonly bodyDivText?: string;
  /** The rule looks at the URL alone. */
  readonly url?: (url: URL) => boolean;
}

/** Paths of Sourcepoint's message pages (its rule's detectCmp). */
const SOURCEPOINT_PATHS = ['/index.html', '/privacy-manager/index.html', '/ccpa_pm/index.html', '/us_pm/index.html'];

/** The package's code rules by name, and what each needs. */
export const CODE_RULE_PROBES: Readonly<Record<string, CodeRuleProbe>> = {
  'TrustArc-top': { selectors: ['#truste-show-consent', '#truste-consent-track'] },
  Cybotcookiebot: { globals: ['Cookiebot'] },
  'Sourcepoint-frame': {
    url: (url) => url.hostname.endsWith('.sp-prod.net') || SOURCEPOINT_PATHS.includes(url.pathname),
  },
  'consentmanager.net': { globals: ['__cmp'], selectors: ['#cmpbox'] },
  Evidon: { selectors: ['#_evidon_banner'] },
  Onetrust: { selectors: ['#onetrust-banner-sdk', '#onetrust-pc-sdk'] },
  Klaro: { selectors: ['.klaro > .cookie-modal', '.klaro > .cookie-notice'] },
  Uniconsent: { selectors: ['.unic .unic-box,.unic .unic-bar,.unic .unic-modal'] },
  Conversant: { selectors: ['.cmp-root .cmp-receptacle'] },
  'tiktok.com': { selectors: ['tiktok-cookie-banner'] },
  'tumblr-com': { selectors: ['#cmp-app-container'] },
  // Its card, or a fixed <div> of the body whose text holds "VRM", "Your Privacy" and "Admiral".
  Admiral: {
    selectors: ['div > div[class*=Card] > div[class*=Frame] > div[class*=Pills] > button[class*=Pills__StyledPill]'],
    bodyDivText: 'admiral',
  },
};

/** The parts of the page the probes read. */
export interface ProbedDocument {
  querySelector(selectors: string): unknown;
  querySelectorAll(selectors: string): ArrayLike<{ textContent: string | null }>;
  evaluate?(expression: string, contextNode: unknown, resolver: null, type: number, result: null): { singleNodeValue?: unknown };
  readonly cookie: string;
}

/** XPathResult.FIRST_ORDERED_NODE_TYPE. */
const FIRST_NODE = 9;

function matches(document: ProbedDocument, selector: string): boolean {
  try {
    return document.querySelector(selector) !== null;
  } catch {
    // A selector this browser rejects fails its rule in the engine too.
    return false;
  }
}

function xpathMatches(document: ProbedDocument, expression: string): boolean {
  try {
    return document.evaluate?.(expression, document, null, FIRST_NODE, null).singleNodeValue != null;
  } catch {
    return false;
  }
}

function snippetHolds(name: string): boolean {
  const snippet = (evalSnippets as Record<string, (() => unknown) | undefined>)[name];
  // An evaluation the package does not have cannot be told: the document is looked at.
  if (snippet === undefined) return true;
  try {
    return Boolean(snippet());
  } catch {
    return false;
  }
}

/** The document's cookies; none where reading them throws (a sandboxed frame), as the package's cookie step then fails. */
function cookiesOf(document: ProbedDocument): string {
  try {
    return document.cookie;
  } catch {
    return '';
  }
}

function codeRuleMayDetect(probe: CodeRuleProbe, document: ProbedDocument, window: object, url: URL): boolean {
  if (probe.url?.(url)) return true;
  if (probe.globals?.some((name) => (window as Record<string, unknown>)[name] != null)) return true;
  if (probe.selectors?.some((selector) => matches(document, selector))) return true;
  if (probe.bodyDivText !== undefined) {
    const text = probe.bodyDivText;
    const divs = document.querySelectorAll('body > div');
    for (let i = 0; i < divs.length; i++) if ((divs[i]!.textContent ?? '').toLowerCase().includes(text)) return true;
  }
  return false;
}

/**
 * Whether one of the rules may detect a dialog in `document` as it is now: a probe of the
 * declarative rules or of the code rules holds. Plain loops, cheapest first: this runs in every
 * document, at the engine's moments, until it holds.
 */
export function consentMayShow(probes: DetectionProbes, document: ProbedDocument, window: object, href: string): boolean {
  if (probes.unprobed.length > 0) return true;
  for (const name of probes.snippets) if (snippetHolds(name)) return true;
  if (probes.cookies.length > 0) {
    const cookies = cookiesOf(document);
    for (const text of probes.cookies) if (cookies.includes(text)) return true;
  }
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return true;
  }
  for (const name in CODE_RULE_PROBES) if (codeRuleMayDetect(CODE_RULE_PROBES[name]!, document, window, url)) return true;
  for (const selector of probes.selectors) if (matches(document, selector)) return true;
  for (const expression of probes.xpaths) if (xpathMatches(document, expression)) return true;
  return false;
}
