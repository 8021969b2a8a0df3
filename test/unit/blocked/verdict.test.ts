// The verdict on bot walls (docs/api.md "Blocked pages") over plain data: the main document's status
// and headers and what the in-page read saw. Each vendor's wall is told by its vendor and kind, and
// what must not be flagged is not: a CAPTCHA in a comment or login form, a vendor's sensor on every
// page (its headers, its cookies), a vendor's error page for an origin that is down.
import { describe, expect, it } from 'vitest';
import type { MarkerId } from '../../../src/blocked/markers.js';
import { blockedVerdict, LITTLE_TEXT, type WallSignals } from '../../../src/blocked/verdict.js';

/** What the read sends of a page that shows these markers: by default a short page with nothing to fill in. */
const signals = (markers: MarkerId[], more: Partial<WallSignals> = {}): WallSignals => ({
  markers,
  frameMarkers: [],
  textLength: 300,
  formFields: 0,
  ...more,
});

describe('blockedVerdict: each vendor by its own signal', () => {
  it.each([
    [
      'Cloudflare managed challenge (cf-mitigated)',
      403,
      { 'cf-mitigated': 'challenge', server: 'cloudflare' },
      undefined,
      'cloudflare',
      'challenge',
    ],
    [
      'Cloudflare challenge page by its orchestrate script alone',
      403,
      { server: 'cloudflare' },
      signals(['cloudflare-challenge']),
      'cloudflare',
      'challenge',
    ],
    [
      'Cloudflare block page (1020, "Sorry, you have been blocked")',
      403,
      { server: 'cloudflare', 'cf-ray': '8a1b2c3d4e5f6a7b-FRA' },
      signals(['cloudflare-error']),
      'cloudflare',
      'block',
    ],
    ['Cloudflare rate limiting (1015)', 429, { server: 'cloudflare' }, signals(['cloudflare-error']), 'cloudflare', 'block'],
    ['a Turnstile wall', 200, {}, signals(['turnstile']), 'cloudflare', 'captcha'],
    ['Akamai Access Denied', 403, { server: 'AkamaiGHost' }, undefined, 'akamai', 'block'],
    ['Akamai crypto challenge (sec-cpt)', 428, {}, signals(['akamai-challenge']), 'akamai', 'challenge'],
    ['HUMAN (PerimeterX) press-and-hold', 403, {}, signals(['perimeterx-captcha']), 'perimeterx', 'captcha'],
    ['DataDome CAPTCHA', 403, { 'x-datadome': 'protected', 'x-dd-b': '1' }, signals(['datadome-captcha']), 'datadome', 'captcha'],
    ['DataDome device check', 403, { 'x-datadome': 'protected' }, signals(['datadome-interstitial']), 'datadome', 'challenge'],
    ['DataDome ban', 403, { 'x-datadome': 'protected' }, signals(['datadome-captcha', 'datadome-block']), 'datadome', 'block'],
    [
      'Imperva incident page',
      200,
      { 'x-iinfo': '10-1-2 NNNN', 'x-cdn': 'Imperva' },
      signals(['imperva-frame'], { textLength: 0 }),
      'imperva',
      'block',
    ],
    [
      'Imperva CAPTCHA (in its same-origin frame)',
      200,
      { 'x-cdn': 'Imperva' },
      signals(['imperva-frame'], { textLength: 0, frameMarkers: ['hcaptcha'] }),
      'imperva',
      'captcha',
    ],
    ['AWS WAF challenge action', 202, { 'x-amzn-waf-action': 'challenge' }, undefined, 'aws-waf', 'challenge'],
    ['AWS WAF CAPTCHA action', 405, { 'x-amzn-waf-action': 'captcha' }, undefined, 'aws-waf', 'captcha'],
    ['AWS WAF CAPTCHA page by its script and status', 405, {}, signals(['aws-waf-captcha']), 'aws-waf', 'captcha'],
    ['Kasada by its headers', 429, { 'x-kpsdk-ct': '0hZ…', 'x-kpsdk-r': '1-AQ' }, undefined, 'kasada', 'challenge'],
    ['Kasada by its proof-of-work script', 429, {}, signals(['kasada-challenge']), 'kasada', 'challenge'],
    ['a reCAPTCHA wall', 200, {}, signals(['recaptcha']), 'captcha', 'captcha'],
    ['an hCaptcha wall served as a refusal', 403, {}, signals(['hcaptcha']), 'captcha', 'captcha'],
  ] as const)('%s', (_name, status, headers, seen, vendor, kind) => {
    expect(blockedVerdict({ status, headers }, seen)).toEqual({ vendor, kind });
  });
});

describe('blockedVerdict: what is not a wall', () => {
  const notBlocked = (status: number, headers: Record<string, string>, seen?: WallSignals) =>
    expect(blockedVerdict({ status, headers }, seen)).toBeUndefined();

  it('passes an ordinary page, whatever its status, with no marker', () => {
    for (const status of [200, 201, 301, 403, 404, 429, 500, 503]) notBlocked(status, { 'content-type': 'text/html' });
  });

  it("passes a page of a protected site: the vendors' headers on every answer are no wall", () => {
    notBlocked(200, {
      server: 'cloudflare',
      'cf-ray': '8a1b2c3d4e5f6a7b-FRA',
      'x-datadome': 'protected',
      'x-iinfo': '10-1-2 NNNN',
      'x-cdn': 'Imperva',
      'x-amz-cf-id': 'abc',
      'set-cookie': '_abck=1; datadome=2; visid_incap_1=3; __cf_bm=4; _px3=5',
    });
    // Akamai's edge on a page it served (not its own 403).
    notBlocked(200, { server: 'AkamaiGHost' });
    // Kasada's headers on a page it let through.
    notBlocked(200, { 'x-kpsdk-ct': '0hZ…' });
    // A target's own 403 through Cloudflare, with its own page.
    notBlocked(403, { server: 'cloudflare', 'cf-ray': '1' });
    // cf-mitigated says "challenge" only; nothing else is one.
    notBlocked(200, { 'cf-mitigated': 'block' });
  });

  it('passes an article that embeds reCAPTCHA in its comment form', () => {
    notBlocked(200, {}, signals(['recaptcha'], { textLength: 6400, formFields: 3 }));
    // Even a short post: the form asks for a comment, the CAPTCHA only guards it.
    notBlocked(200, {}, signals(['recaptcha'], { textLength: 400, formFields: 1 }));
  });

  it('passes a login page guarded by a CAPTCHA: it asks for more than the CAPTCHA', () => {
    for (const widget of ['recaptcha', 'hcaptcha', 'turnstile'] as const) notBlocked(200, {}, signals([widget], { formFields: 2 }));
  });

  it('passes a long page with a CAPTCHA widget and nothing to fill in (a contact page whose form is elsewhere)', () => {
    notBlocked(200, {}, signals(['hcaptcha'], { textLength: LITTLE_TEXT + 1 }));
  });

  it("passes a vendor's marker on a page that is much else, served as a success", () => {
    for (const marker of ['perimeterx-captcha', 'datadome-captcha', 'imperva-frame', 'akamai-challenge', 'cloudflare-challenge'] as const) {
      notBlocked(200, {}, signals([marker], { textLength: 5000 }));
    }
  });

  it("passes AWS WAF's scripts in a site's own integration (a success), whatever the page's size", () => {
    notBlocked(200, {}, signals(['aws-waf-challenge'], { textLength: 10 }));
    notBlocked(200, {}, signals(['aws-waf-captcha'], { textLength: 10 }));
  });

  it("passes Kasada's script on a page it let through (not a 429)", () => {
    notBlocked(200, {}, signals(['kasada-challenge'], { textLength: 10 }));
  });

  it("passes Cloudflare's error page for an origin that is down (5xx): an error of the site, not a wall", () => {
    for (const status of [500, 502, 520, 521, 522, 524])
      notBlocked(status, { server: 'cloudflare', 'cf-ray': '1' }, signals(['cloudflare-error']));
  });

  it("passes Cloudflare's error frame on a 403 that did not come through Cloudflare", () => {
    notBlocked(403, { server: 'nginx' }, signals(['cloudflare-error']));
  });
});
