// The structural marks of a bot wall that only the page can show (docs/api.md "Blocked pages"): a
// vendor's challenge script, frame or container, a CAPTCHA widget. Each is a CSS selector over the
// document the in-page read already holds, never a word of the page's text: a list of compound
// selectors (no commas inside), each starting with a tag, an id or a class name, by which
// src/in-page/wall-signals.ts looks its candidates up. Which vendor each mark comes from and where it
// was learnt: docs/blocked-pages.md. Pure data: bundled into the in-page script, read by verdict.ts.

export type MarkerId =
  /** Cloudflare's challenge platform: the orchestrating script its challenge page loads, its challenge form. */
  | 'cloudflare-challenge'
  /** The frame of Cloudflare's own error and block pages. */
  | 'cloudflare-error'
  /** A Turnstile widget (Cloudflare's CAPTCHA), shown. */
  | 'turnstile'
  /** Akamai Bot Manager's crypto challenge (sec-cpt) frame. */
  | 'akamai-challenge'
  /** HUMAN (PerimeterX): the press-and-hold CAPTCHA's container, its block page's mark, its CAPTCHA script. */
  | 'perimeterx-captcha'
  /** DataDome: the CAPTCHA script and frame of its block page. */
  | 'datadome-captcha'
  /** DataDome: the device check (interstitial) script and frame. */
  | 'datadome-interstitial'
  /** DataDome: the frame of a visitor it bans outright. */
  | 'datadome-block'
  /** Imperva (Incapsula): the incident frame that fills its block page. */
  | 'imperva-frame'
  /** AWS WAF: the challenge interstitial's token script. */
  | 'aws-waf-challenge'
  /** AWS WAF: the CAPTCHA interstitial's script. */
  | 'aws-waf-captcha'
  /** Kasada: the proof-of-work script its 429 page loads. */
  | 'kasada-challenge'
  /** A reCAPTCHA widget, shown (not the invisible v3 badge). */
  | 'recaptcha'
  /** An hCaptcha widget, shown (not the invisible one). */
  | 'hcaptcha';

/** Each marker's selector; a widget (CAPTCHA_WIDGETS) counts only while shown, a script or frame as it stands. */
export const MARKERS: Readonly<Record<MarkerId, string>> = {
  'cloudflare-challenge': 'script[src*="/challenge-platform/"][src*="/orchestrate/"],#challenge-form[action*="__cf_chl_"]',
  'cloudflare-error': '#cf-error-details',
  turnstile: '.cf-turnstile,iframe[src^="https://challenges.cloudflare.com/"]',
  'akamai-challenge': '#sec-if-cpt-container,iframe[src*="/_sec/cp_challenge/"]',
  // Its CAPTCHA script, from its CDN or the site's own path, is always /captcha.js?a=c…
  'perimeterx-captcha': '#px-captcha,meta[content="px-captcha"],script[src*="/captcha.js?a="]',
  'datadome-captcha': 'script[src*="captcha-delivery.com/c.js"],iframe[src*="captcha-delivery.com/captcha"]',
  'datadome-interstitial': 'script[src*="captcha-delivery.com/i.js"],iframe[src*="captcha-delivery.com/interstitial"]',
  'datadome-block': 'iframe[src*="captcha-delivery.com/captcha"][src*="t=bv"]',
  'imperva-frame': 'iframe[src*="/_Incapsula_Resource?"]',
  'aws-waf-challenge': 'script[src*=".token.awswaf.com/"]',
  'aws-waf-captcha': 'script[src*=".captcha.awswaf.com/"]',
  'kasada-challenge': 'script[src*="/ips.js"]',
  // The checkbox frame of reCAPTCHA v2 and Enterprise (/recaptcha/api2/anchor, /recaptcha/enterprise/anchor).
  recaptcha: '.g-recaptcha:not([data-size="invisible"]),iframe[src*="/recaptcha/"][src*="/anchor?"]:not([src*="size=invisible"])',
  hcaptcha: '.h-captcha:not([data-size="invisible"]),iframe[src*="hcaptcha.com/"][src*="frame=checkbox"]',
};

/**
 * The CAPTCHA widgets any site can embed: each counts only while shown (not display: none or
 * visibility: hidden, itself or an ancestor: a CAPTCHA in a closed dialog is none), and is a wall
 * only when it is the page's content.
 */
export const CAPTCHA_WIDGETS: readonly MarkerId[] = ['recaptcha', 'hcaptcha', 'turnstile'];

/**
 * A wall is small (the e2e fixtures' walls hold 5 to 29 elements; a site's CAPTCHA wall in its own
 * template some hundreds): a document of more elements is no wall, and its markers are not looked
 * for. Counting costs about 2 ms on a page of 120,000 elements, where looking for the markers cost
 * 15 to 55 ms.
 */
export const MAX_WALL_ELEMENTS = 5000;
