// Whether a page is a bot wall rather than the target's content (docs/api.md "Blocked pages"), and
// whose: a pure policy over the main document's status and response headers and the few structural
// signals the in-page read gathered (markers.ts). The cheap signals decide first: a vendor header
// that names the answer a challenge (cf-mitigated, x-amzn-waf-action) or a refusal status from a
// vendor's edge. A marker in the page decides only when the document is the wall itself: its status
// refuses the request, or the page is little else than the marker. A CAPTCHA widget any site may
// embed is a wall only when the page is little else and asks for nothing else (no field to fill).
// Each rule's evidence, and what cannot be told apart: docs/blocked-pages.md.
import { CAPTCHA_WIDGETS, type MarkerId } from './markers.js';

/** Lower-case vendor names of docs/api.md "Blocked pages"; `captcha` is a CAPTCHA wall of no vendor's own. */
export const BLOCK_VENDORS = ['cloudflare', 'akamai', 'perimeterx', 'datadome', 'imperva', 'aws-waf', 'kasada', 'captcha'] as const;
export type BlockVendor = (typeof BLOCK_VENDORS)[number];

/** challenge: checks the browser and may let it through by itself; captcha: asks a person; block: refuses. */
export const BLOCK_KINDS = ['challenge', 'captcha', 'block'] as const;
export type BlockKind = (typeof BLOCK_KINDS)[number];

export interface Blocked {
  vendor: BlockVendor;
  kind: BlockKind;
}

/** What the in-page read saw of a page that shows at least one marker (none: the read sends nothing). */
export interface WallSignals {
  /** The markers the document shows. */
  markers: MarkerId[];
  /** The markers shown inside its same-origin frames (a vendor's frame that holds a CAPTCHA). */
  frameMarkers: MarkerId[];
  /** Characters of the text the page shows (innerText, white space collapsed). */
  textLength: number;
  /** Shown fields a person would fill in (text, e-mail, password, search inputs, text areas, selects). */
  formFields: number;
}

/** The final main-document response: its status and headers, names lowercase. */
export interface MainResponse {
  status: number;
  headers: Record<string, string>;
}

/**
 * At most this many characters of shown text and the page is "little else" than its wall: a
 * vendor's challenge or block page says a few sentences at most (the e2e fixtures' walls show 0 to
 * 410, Cloudflare's block page the most); an article, a product or a search result says more.
 */
export const LITTLE_TEXT = 1000;

/** Statuses a wall answers with (a refusal, AWS WAF's challenge 202 and CAPTCHA 405, Akamai's 428). */
const REFUSALS: ReadonlySet<number> = new Set([202, 401, 403, 405, 428, 429, 503]);

type Rule = (response: MainResponse, signals: WallSignals | undefined) => Blocked | undefined;

const shows = (signals: WallSignals | undefined, id: MarkerId) => signals?.markers.includes(id) === true;
const framesShow = (signals: WallSignals | undefined, ids: readonly MarkerId[]) =>
  signals?.frameMarkers.some((id) => ids.includes(id)) === true;
/** The document is the wall: its status refuses, or it shows little else than the marker. */
const isWall = (response: MainResponse, signals: WallSignals) => REFUSALS.has(response.status) || signals.textLength <= LITTLE_TEXT;
const hasHeaderLike = (headers: Record<string, string>, prefix: string) => Object.keys(headers).some((name) => name.startsWith(prefix));

/** Cloudflare names every challenge page it answers with `cf-mitigated: challenge` (its documented signal). */
const cloudflareMitigated: Rule = ({ headers }) =>
  headers['cf-mitigated'] === 'challenge' ? { vendor: 'cloudflare', kind: 'challenge' } : undefined;

/** AWS WAF's challenge (202) and CAPTCHA (405) actions say so in `x-amzn-waf-action`. */
const awsWafAction: Rule = ({ headers }) => {
  const action = headers['x-amzn-waf-action']?.trim().toLowerCase();
  if (action === 'challenge') return { vendor: 'aws-waf', kind: 'challenge' };
  if (action === 'captcha') return { vendor: 'aws-waf', kind: 'captcha' };
  return undefined;
};

/** Kasada refuses with 429 (or 403) and its own headers, or a page that loads its proof-of-work script. */
const kasadaRefusal: Rule = ({ status, headers }, signals) => {
  if (status !== 429 && status !== 403) return undefined;
  const kasada = hasHeaderLike(headers, 'x-kpsdk-') || hasHeaderLike(headers, 'x-kasada') || shows(signals, 'kasada-challenge');
  return kasada ? { vendor: 'kasada', kind: 'challenge' } : undefined;
};

/** Akamai's edge names itself (`Server: AkamaiGHost`) on the answers it makes itself, its Access Denied 403 among them. */
const akamaiEdgeRefusal: Rule = ({ status, headers }) =>
  status === 403 && /^akamaighost\b/i.test(headers.server ?? '') ? { vendor: 'akamai', kind: 'block' } : undefined;

/** Cloudflare's own error frame on a refusal it made (403, 429): its block page. On a 5xx it is an origin error, no wall. */
const cloudflareBlock: Rule = ({ status, headers }, signals) => {
  const fromCloudflare = /^cloudflare\b/i.test(headers.server ?? '') || headers['cf-ray'] !== undefined;
  return (status === 403 || status === 429) && fromCloudflare && shows(signals, 'cloudflare-error')
    ? { vendor: 'cloudflare', kind: 'block' }
    : undefined;
};

/** A vendor's wall known by its marker alone, once the document is the wall. */
function markedWall(id: MarkerId, blocked: (signals: WallSignals) => Blocked, statuses?: ReadonlySet<number>): Rule {
  return (response, signals) => {
    if (signals === undefined || !signals.markers.includes(id)) return undefined;
    const wall = statuses === undefined ? isWall(response, signals) : statuses.has(response.status);
    return wall ? blocked(signals) : undefined;
  };
}

/** AWS WAF's scripts also serve sites' own integrations: only its interstitials' statuses make them a wall. */
const AWS_WAF_STATUSES: ReadonlySet<number> = new Set([202, 405]);

/** A CAPTCHA widget that is the page's content: little else shown, nothing else to fill in. */
function captchaWall(id: MarkerId, vendor: BlockVendor): Rule {
  return (_response, signals) => {
    if (!signals?.markers.includes(id)) return undefined;
    return signals.textLength <= LITTLE_TEXT && signals.formFields === 0 ? { vendor, kind: 'captcha' } : undefined;
  };
}

/** In order: a header that names the answer, a vendor's edge refusal, a vendor's marker, a CAPTCHA widget alone. */
const RULES: readonly Rule[] = [
  cloudflareMitigated,
  awsWafAction,
  kasadaRefusal,
  markedWall('akamai-challenge', () => ({ vendor: 'akamai', kind: 'challenge' })),
  akamaiEdgeRefusal,
  cloudflareBlock,
  markedWall('cloudflare-challenge', () => ({ vendor: 'cloudflare', kind: 'challenge' })),
  markedWall('perimeterx-captcha', () => ({ vendor: 'perimeterx', kind: 'captcha' })),
  markedWall('datadome-block', () => ({ vendor: 'datadome', kind: 'block' })),
  markedWall('datadome-captcha', () => ({ vendor: 'datadome', kind: 'captcha' })),
  markedWall('datadome-interstitial', () => ({ vendor: 'datadome', kind: 'challenge' })),
  markedWall('imperva-frame', (s) => ({ vendor: 'imperva', kind: framesShow(s, CAPTCHA_WIDGETS) ? 'captcha' : 'block' })),
  markedWall('aws-waf-captcha', () => ({ vendor: 'aws-waf', kind: 'captcha' }), AWS_WAF_STATUSES),
  markedWall('aws-waf-challenge', () => ({ vendor: 'aws-waf', kind: 'challenge' }), AWS_WAF_STATUSES),
  captchaWall('turnstile', 'cloudflare'),
  captchaWall('recaptcha', 'captcha'),
  captchaWall('hcaptcha', 'captcha'),
];

/** The wall the page is, or undefined when it is the target's content (docs/api.md "Blocked pages"). */
export function blockedVerdict(response: MainResponse, signals?: WallSignals): Blocked | undefined {
  for (const rule of RULES) {
    const blocked = rule(response, signals);
    if (blocked !== undefined) return blocked;
  }
  return undefined;
}
