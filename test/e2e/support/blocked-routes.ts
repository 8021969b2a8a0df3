// Fixture pages of bot walls (docs/api.md "Blocked pages", docs/blocked-pages.md), each with the
// status, headers and markup its vendor answers with, as the vendor's own documentation, its
// enforcers' templates and the tools that detect it show them (identifiers, keys and rays made up);
// the pages a wall must not be mistaken for (an article with reCAPTCHA in its comment form, a page
// of a protected site loading every vendor's sensor); and JavaScript challenges that set a cookie
// and reload or redirect to the page they guard. Served offline by fixture-server.ts: every answer
// carries a same-origin-only Content-Security-Policy (ours, not the vendor's), so the vendors'
// scripts and frames, referenced by their real URLs, are refused at once instead of stalling on DNS.
import type { IncomingMessage, ServerResponse } from 'node:http';

type Handler = (url: URL, req: IncomingMessage, res: ServerResponse) => void;

/** What each wall fixture is: its path, and the vendor and kind it must be answered with. */
export const WALLS = [
  ['/blocked/cloudflare-challenge', 'cloudflare', 'challenge'],
  ['/blocked/cloudflare-turnstile', 'cloudflare', 'captcha'],
  ['/blocked/cloudflare-block', 'cloudflare', 'block'],
  ['/blocked/akamai-block', 'akamai', 'block'],
  ['/blocked/akamai-challenge', 'akamai', 'challenge'],
  ['/blocked/perimeterx', 'perimeterx', 'captcha'],
  ['/blocked/datadome-captcha', 'datadome', 'captcha'],
  ['/blocked/datadome-interstitial', 'datadome', 'challenge'],
  ['/blocked/imperva-block', 'imperva', 'block'],
  ['/blocked/imperva-captcha', 'imperva', 'captcha'],
  ['/blocked/aws-waf-challenge', 'aws-waf', 'challenge'],
  ['/blocked/aws-waf-captcha', 'aws-waf', 'captcha'],
  ['/blocked/kasada', 'kasada', 'challenge'],
  ['/blocked/captcha-wall', 'captcha', 'captcha'],
] as const;

/** Pages that are no wall though they carry a wall's parts. */
export const NOT_WALLS = ['/blocked/article-with-recaptcha-comments', '/blocked/protected-site-page'] as const;

/** The sentence of the page a self-resolving challenge stands in front of. */
export const GUARDED_TEXT = 'The lighthouse on the north pier was first lit in 1854.';

/** Ours: vendor URLs are refused by the browser at once (no DNS, nothing reaches out of 127.0.0.1). */
const SAME_ORIGIN_ONLY = { 'Content-Security-Policy': "default-src 'self' 'unsafe-inline'" };

function send(res: ServerResponse, status: number, headers: Record<string, string | string[]>, body: string) {
  res.writeHead(status, { 'Content-Type': 'text/html; charset=UTF-8', ...headers, ...SAME_ORIGIN_ONLY });
  res.end(body);
}

const CLOUDFLARE_HEADERS = {
  Server: 'cloudflare',
  'CF-RAY': '8f3a1c2b4d5e6f70-FRA',
  'Cache-Control': 'private, max-age=0, no-store, no-cache, must-revalidate, post-check=0, pre-check=0',
  Expires: 'Thu, 01 Jan 1970 00:00:01 GMT',
  'Referrer-Policy': 'same-origin',
  'X-Frame-Options': 'SAMEORIGIN',
};

/**
 * Cloudflare's managed challenge page ("Just a moment..."): the challenge options and the script
 * that loads the orchestrating challenge script; `solve` is what a challenge that passes does next.
 */
function cloudflareChallenge(path: string, solve = ''): string {
  return `<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title><meta http-equiv="Content-Type" content="text/html; charset=UTF-8"><meta http-equiv="X-UA-Compatible" content="IE=Edge"><meta name="robots" content="noindex,nofollow"><meta name="viewport" content="width=device-width,initial-scale=1"><style>*{box-sizing:border-box;margin:0;padding:0}html{line-height:1.15}body{display:flex;flex-direction:column;height:100vh;min-height:100vh}.main-content{margin:8rem auto;max-width:60rem;padding-left:1.5rem}</style><meta http-equiv="refresh" content="390"></head><body class="no-js"><div class="main-wrapper" role="main"><div class="main-content"><noscript><div class="h2"><span id="challenge-error-text">Enable JavaScript and cookies to continue</span></div></noscript></div></div><script>(function(){window._cf_chl_opt={cvId: '3',cZone: "127.0.0.1",cType: 'managed',cRay: '8f3a1c2b4d5e6f70',cH: 'Xk1pR2vQ7s.fZ9yW3nE0aLmB4cT6uD8hJ5gK',cUPMDTk: "${path}?__cf_chl_tk=Zq9.4aX1-1730000000-1.0.1.1-Q2w3e4r5t6",cFPWv: 'b',cITimeS: '1730000000',cTTimeMs: '1000',cMTimeMs: '390000',cTplC: 0,cTplV: 5,cTplB: 'cf',cK: "",fa: "${path}?__cf_chl_f_tk=Zq9.4aX1-1730000000-1.0.1.1-Q2w3e4r5t6",md: "Rm9vYmFyYmF6cXV4LjE3MzAwMDAwMDA",mdrd: "",cRq: {ru: 'aHR0cDovLzEyNy4wLjAuMQ==',ra: 'TW96aWxsYS81LjA=',rm: 'R0VU',d: 'dGhlIGNoYWxsZW5nZSBkYXRh',t: 'MTczMDAwMDAwMC4wMDAwMDA=',cT: Math.floor(Date.now() / 1000),m: 'bWFjLXZhbHVl',i1: 'aTEtdmFsdWU=',i2: 'aTItdmFsdWU=',zh: 'emgtdmFsdWU=',uh: 'dWgtdmFsdWU=',hh: 'aGgtdmFsdWU='}};var cpo = document.createElement('script');cpo.src = '/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1?ray=8f3a1c2b4d5e6f70';window._cf_chl_opt.cOgUHash = location.hash === '' && location.href.indexOf('#') !== -1 ? '#' : location.hash;document.getElementsByTagName('head')[0].appendChild(cpo);}());${solve}</script></body></html>`;
}

/** The page behind the self-resolving challenges, once its cookie is set. */
function guardedPage(title: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><main><h1>${title}</h1><p>${GUARDED_TEXT}</p><p>Its keepers climbed one hundred and twelve steps twice a night until the light was made automatic.</p></main></body></html>`;
}

const cleared = (req: IncomingMessage) => /(^|;\s*)cf_clearance=/.test(req.headers.cookie ?? '');

/** The challenge's script once it has "passed": it sets its clearance cookie after a while, then `then`. */
const passAfter = (ms: number, then: string) =>
  `setTimeout(function(){document.cookie='cf_clearance=Vx8k2p.q1-1730000000-1.2.1.1-Ab3; path=/';${then}}, ${ms});`;

/** A short article of a site's own, for the pages that must not be taken for walls. */
const ARTICLE_PARAGRAPHS = Array.from(
  { length: 8 },
  (_, i) =>
    `<p>Paragraph ${i + 1} of the harbour's history: the fishing fleet, the ferry to the islands, the lifeboat station and the market that still opens at dawn on weekdays, as it has for two hundred years.</p>`,
).join('');

export const blockedRoutes: Record<string, Handler> = {
  // Cloudflare's managed challenge: 403 with cf-mitigated: challenge, its documented mark.
  '/blocked/cloudflare-challenge': (url, _req, res) =>
    send(res, 403, { ...CLOUDFLARE_HEADERS, 'cf-mitigated': 'challenge' }, cloudflareChallenge(url.pathname)),
  // A challenge that passes: sets cf_clearance after 1.5 s (past the 500 ms of networkIdle) and reloads.
  '/blocked/cloudflare-reload': (url, req, res) =>
    cleared(req)
      ? send(res, 200, { Server: 'cloudflare', 'CF-RAY': '8f3a1c2b4d5e6f71-FRA' }, guardedPage('North pier lighthouse'))
      : send(
          res,
          403,
          { ...CLOUDFLARE_HEADERS, 'cf-mitigated': 'challenge' },
          cloudflareChallenge(url.pathname, passAfter(1500, 'location.reload();')),
        ),
  // A challenge that passes and sends the page on to another URL.
  '/blocked/cloudflare-redirect': (url, _req, res) =>
    send(
      res,
      403,
      { ...CLOUDFLARE_HEADERS, 'cf-mitigated': 'challenge' },
      cloudflareChallenge(url.pathname, passAfter(1500, "location.replace('/blocked/cleared?from=redirect');")),
    ),
  '/blocked/cleared': (_url, req, res) =>
    cleared(req)
      ? send(res, 200, { Server: 'cloudflare' }, guardedPage('Cleared lighthouse'))
      : send(res, 403, CLOUDFLARE_HEADERS, 'no clearance'),
  // A Turnstile interstitial: a site's gate whose only content is the Turnstile widget.
  '/blocked/cloudflare-turnstile': (_url, _req, res) =>
    send(
      res,
      200,
      { Server: 'cloudflare', 'CF-RAY': '8f3a1c2b4d5e6f72-FRA' },
      `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Security check</title><script src="https://challenges.cloudflare.com/turnstile/v0/api.js" async defer></script></head><body><main><h1>Checking your connection</h1><form method="post" action="/blocked/turnstile-verify"><div class="cf-turnstile" data-sitekey="0x4AAAAAAAB1cDeFgHiJkLmN" data-callback="onPass" style="min-width:300px;min-height:65px"></div><input type="hidden" name="next" value="/"><noscript>This check needs JavaScript.</noscript></form></main></body></html>`,
    ),
  // Cloudflare's block page (a WAF rule): 403 from its edge, its error frame.
  '/blocked/cloudflare-block': (_url, _req, res) =>
    send(
      res,
      403,
      CLOUDFLARE_HEADERS,
      `<!DOCTYPE html><html class="no-js" lang="en-US"><head><title>Attention Required! | Cloudflare</title><meta charset="UTF-8"><meta name="robots" content="noindex, nofollow"><link rel="stylesheet" id="cf_styles-css" href="/cdn-cgi/styles/cf.errors.css"></head><body><div id="cf-wrapper"><div class="cf-alert cf-alert-error cf-cookie-error" id="cookie-alert" data-translate="enable_cookies">Please enable cookies.</div><div id="cf-error-details" class="cf-error-details-wrapper"><div class="cf-wrapper cf-header cf-error-overview"><h1 data-translate="block_headline">Sorry, you have been blocked</h1><h2 class="cf-subheadline"><span data-translate="unable_to_access">You are unable to access</span> 127.0.0.1</h2></div><div class="cf-section cf-wrapper"><div class="cf-columns two"><div class="cf-column"><h2 data-translate="blocked_why_headline">Why have I been blocked?</h2><p data-translate="blocked_why_detail">This website is using a security service to protect itself from online attacks. The action you just performed triggered the security solution.</p></div><div class="cf-column"><h2 data-translate="blocked_resolve_headline">What can I do to resolve this?</h2><p data-translate="blocked_resolve_detail">You can email the site owner to let them know you were blocked.</p></div></div></div><div class="cf-error-footer cf-wrapper w-240 lg:w-full py-10 sm:py-4 sm:px-8 mx-auto text-center sm:text-left border-solid border-0 border-t border-gray-300"><p class="text-13"><span class="cf-footer-item sm:block sm:mb-1">Cloudflare Ray ID: <strong class="font-semibold">8f3a1c2b4d5e6f70</strong></span><span class="cf-footer-separator sm:hidden">&bull;</span><span id="cf-footer-item-ip" class="cf-footer-item hidden sm:block sm:mb-1">Your IP: <button type="button" id="cf-footer-ip-reveal" class="cf-footer-ip-reveal-btn">Click to reveal</button></span></p></div></div></div></body></html>`,
    ),
  // Akamai's Access Denied: 403 made by its edge (Server: AkamaiGHost), a reference number.
  '/blocked/akamai-block': (_url, _req, res) =>
    send(
      res,
      403,
      {
        Server: 'AkamaiGHost',
        'Mime-Version': '1.0',
        'Content-Type': 'text/html',
        Expires: 'Thu, 01 Jan 1970 00:00:00 GMT',
        'Cache-Control': 'max-age=0, no-cache, no-store',
        Pragma: 'no-cache',
      },
      `<HTML><HEAD>\n<TITLE>Access Denied</TITLE>\n</HEAD><BODY>\n<H1>Access Denied</H1>\n \nYou don't have permission to access "http&#58;&#47;&#47;127&#46;0&#46;0&#46;1&#47;blocked&#47;akamai&#45;block" on this server.<P>\nReference&#32;&#35;18&#46;6f64d517&#46;1730000000&#46;2b1a3c4d\n<P>https&#58;&#47;&#47;errors&#46;edgesuite&#46;net&#47;18&#46;6f64d517&#46;1730000000&#46;2b1a3c4d</P>\n</BODY>\n</HTML>\n`,
    ),
  // Akamai Bot Manager's crypto challenge (sec-cpt): 428, its challenge frame.
  '/blocked/akamai-challenge': (_url, _req, res) =>
    send(
      res,
      428,
      { Server: 'AkamaiGHost', 'Cache-Control': 'no-cache, no-store', Pragma: 'no-cache' },
      `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Challenge Validation</title><link rel="stylesheet" type="text/css" href="/_sec/cp_challenge/sec-4-3.css"><script type="text/javascript">function cp_clge_done(){location.reload(true);}</script><script src="/_sec/cp_challenge/sec-cpt-4-3.js" async defer></script><script type="text/javascript">sessionStorage.setItem('data-duration', 5);</script></head><body><div class="sec-container"><div id="sec-text-container"><iframe id="sec-text-if" class="custmsg" src="/_sec/cp_challenge/abc-message-4-3.htm"></iframe></div><div id="sec-if-cpt-container" class="cpt-container"><iframe id="sec-cpt-if" provider="crypto" class="crypto" challenge="eyJ0b2tlbiI6ImV4YW1wbGUifQ==" data-key="" data-duration=5 src="/_sec/cp_challenge/ak-challenge-4-3.htm"></iframe></div></div></body></html>`,
    ),
  // HUMAN (PerimeterX): its enforcer's 403 block page, the press-and-hold CAPTCHA.
  '/blocked/perimeterx': (_url, _req, res) =>
    send(
      res,
      403,
      { 'Cache-Control': 'private, no-cache, no-store, must-revalidate', Pragma: 'no-cache' },
      `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="description" content="px-captcha"><title>Access to this page has been denied</title></head><body><div id="px-captcha"></div><script>window._pxVid = '';window._pxUuid = '4f1e2d3c-5b6a-11ef-9a8b-7c6d5e4f3a2b';window._pxAppId = 'PXaBcDeF12';window._pxHostUrl = '/aBcDeF12/xhr';window._pxCustomLogo = null;window._pxJsClientSrc = '/aBcDeF12/init.js';window._pxFirstPartyEnabled = true;var pxCaptchaSrc = '/aBcDeF12/captcha/captcha.js?a=c&u=4f1e2d3c-5b6a-11ef-9a8b-7c6d5e4f3a2b&v=&m=0';var script = document.createElement('script');script.src = pxCaptchaSrc;script.onerror = function () {script = document.createElement('script');script.src = 'https://captcha.px-cloud.net/PXaBcDeF12/captcha.js?a=c&u=4f1e2d3c-5b6a-11ef-9a8b-7c6d5e4f3a2b&v=&m=0';script.onerror = window._pxOnError;document.head.appendChild(script);};window._pxOnError = function () {var div = document.createElement('div');div.className = 'px-captcha-error-container';div.textContent = 'Please check your internet connection or disable your ad-blocker.';document.body.appendChild(div);};document.head.appendChild(script);</script></body></html>`,
    ),
  // DataDome's CAPTCHA block: 403, its headers, the `dd` options and its CAPTCHA script.
  '/blocked/datadome-captcha': (_url, _req, res) =>
    send(res, 403, DATADOME_HEADERS, datadomePage('c', 'https://ct.captcha-delivery.com/c.js')),
  // DataDome's device check (interstitial): the same block with rt 'i' and its device-check script.
  '/blocked/datadome-interstitial': (_url, _req, res) =>
    send(res, 403, DATADOME_HEADERS, datadomePage('i', 'https://ct.captcha-delivery.com/i.js')),
  // Imperva (Incapsula): its incident page, a frame of /_Incapsula_Resource filling the window.
  '/blocked/imperva-block': (_url, _req, res) => send(res, 403, IMPERVA_HEADERS, impervaPage('15')),
  '/blocked/imperva-captcha': (_url, _req, res) => send(res, 403, IMPERVA_HEADERS, impervaPage('24')),
  // The frame's document: the incident (edet=15 here) or, in this fixture, an hCaptcha to solve.
  '/_Incapsula_Resource': (url, _req, res) =>
    send(
      res,
      200,
      IMPERVA_HEADERS,
      url.searchParams.get('edet') === '24'
        ? `<html><head><script src="https://js.hcaptcha.com/1/api.js" async defer></script></head><body><form method="post" action="/_Incapsula_Resource?SWCGHOEL=v2"><div class="h-captcha" data-sitekey="dd6e16a7-972e-47d2-93d0-96642fb6d8de" style="width:303px;height:78px"></div></form></body></html>`
        : '<html><body><h1>Request unsuccessful. Incapsula incident ID: 1234000560123456789-987654321012345678</h1></body></html>',
    ),
  // AWS WAF's challenge action: 202, x-amzn-waf-action: challenge, the interstitial's token script.
  '/blocked/aws-waf-challenge': (_url, _req, res) =>
    sendAwsWaf(
      res,
      'challenge',
      'https://a1b2c3d4e5f6.e7f8a9b0c1d2.us-east-1.token.awswaf.com/a1b2c3d4e5f6/0123456789ab/challenge.js',
      '<div id="challenge-container"></div><script>AwsWafIntegration.saveReferrer();AwsWafIntegration.checkForceRefresh().then(function(force){return force ? AwsWafIntegration.forceRefreshToken() : AwsWafIntegration.getToken();}).then(function(){window.location.reload(true);});</script>',
    ),
  // AWS WAF's CAPTCHA action: 405, x-amzn-waf-action: captcha, the CAPTCHA script.
  '/blocked/aws-waf-captcha': (_url, _req, res) =>
    sendAwsWaf(
      res,
      'captcha',
      'https://a1b2c3d4e5f6.e7f8a9b0c1d2.us-east-1.captcha.awswaf.com/a1b2c3d4e5f6/jsapi.js',
      '<div id="captcha-container"></div><script>window.addEventListener("load", function(){AwsWafCaptcha.renderCaptcha(document.getElementById("captcha-container"), {apiKey: window.awsWafApiKey, onSuccess: function(){window.location.reload(true);}});});</script>',
    ),
  // Kasada: 429 with its headers, a page that runs its proof-of-work script from a path of two ids.
  '/blocked/kasada': (_url, _req, res) =>
    send(
      res,
      429,
      { 'x-kpsdk-ct': '0Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St', 'x-kpsdk-r': '1-AgQ', 'Cache-Control': 'no-store' },
      '<!DOCTYPE html><html><head></head><body><script>window.KPSDK={};KPSDK.now=typeof performance!=="undefined"&&performance.now?performance.now.bind(performance):Date.now.bind(Date);KPSDK.start=KPSDK.now();</script><script src="/5f1d2c3b-4a59-4e6f-8a7b-9c0d1e2f3a4b/6a7b8c9d-0e1f-4a2b-9c3d-4e5f6a7b8c9d/ips.js?KP_UIDz=0Ab1Cd2Ef3&x-kpsdk-v=j-1.0.0"></script></body></html>',
    ),
  // A site's own CAPTCHA wall: a reCAPTCHA and a button, nothing else to read or fill in.
  '/blocked/captcha-wall': (_url, _req, res) =>
    send(
      res,
      200,
      {},
      '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>One more step</title><script src="https://www.google.com/recaptcha/api.js" async defer></script></head><body><main><h1>One more step</h1><p>Please confirm that you are a person to continue.</p><form method="post" action="/verify"><div class="g-recaptcha" data-sitekey="6LcA1bCdAAAAAExAmPlEsItEkEy0123456789ab" style="width:304px;height:78px"></div><button type="submit">Continue</button></form></main></body></html>',
    ),
  // Not walls. An article whose comment form is guarded by reCAPTCHA.
  '/blocked/article-with-recaptcha-comments': (_url, _req, res) =>
    send(
      res,
      200,
      {},
      `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>The harbour, two centuries on</title><script src="https://www.google.com/recaptcha/api.js" async defer></script></head><body><article><h1>The harbour, two centuries on</h1>${ARTICLE_PARAGRAPHS}</article><section id="comments"><h2>Leave a comment</h2><form method="post" action="/comments"><label>Name <input name="name" type="text"></label><label>E-mail <input name="email" type="email"></label><label>Comment <textarea name="comment"></textarea></label><div class="g-recaptcha" data-sitekey="6LcA1bCdAAAAAExAmPlEsItEkEy0123456789ab" style="width:304px;height:78px"></div><button type="submit">Post</button></form></section></body></html>`,
    ),
  // A short page of a site behind every vendor at once: their headers, cookies and sensor scripts,
  // and reCAPTCHA v3's invisible badge. A page of the site, no wall.
  '/blocked/protected-site-page': (_url, _req, res) =>
    send(
      res,
      200,
      {
        Server: 'cloudflare',
        'CF-RAY': '8f3a1c2b4d5e6f73-FRA',
        'x-datadome': 'protected',
        'x-iinfo': '10-12345678-12345679 NNNN CT(0 0 0) RT(1730000000000 0) q(0 0 0 -1) r(1 1) U6',
        'x-cdn': 'Imperva',
        'Set-Cookie': [
          '__cf_bm=AbCdEf.1730000000; path=/',
          'datadome=Q1w2E3r4T5y6; Path=/',
          '_abck=0A1B2C3D~-1~YAAQ; Path=/',
          'visid_incap_123456=AbCd; path=/',
          '_px3=abc123; path=/',
        ],
      },
      `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Harbour tide table</title><script src="/cdn-cgi/challenge-platform/scripts/jsd/main.js" async></script><script src="https://js.datadome.co/tags.js" async></script><script src="https://client.perimeterx.net/PXaBcDeF12/main.min.js" async></script><script src="/_Incapsula_Resource?SWJIYLWA=719d34d31c8e3a6e6fffd425f7e032f3"></script><script src="/akam/13/5e6f7a8b" defer></script><script src="/5f1d2c3b-4a59-4e6f-8a7b-9c0d1e2f3a4b/6a7b8c9d-0e1f-4a2b-9c3d-4e5f6a7b8c9d/p.js"></script><script src="https://www.google.com/recaptcha/api.js?render=6LcA1bCdAAAAAExAmPlEsItEkEy0123456789ab"></script></head><body><main><h1>Tide table</h1><p>High water today at 06:12 and 18:40; low water at 12:25. Spring tides this week.</p></main><div class="grecaptcha-badge" data-style="bottomright" style="width:256px;height:60px;position:fixed;bottom:14px;right:-186px"><div class="grecaptcha-logo"><iframe title="reCAPTCHA" width="256" height="60" src="https://www.google.com/recaptcha/api2/anchor?ar=1&k=6LcA1bCdAAAAAExAmPlEsItEkEy0123456789ab&co=aHR0cDovLzEyNy4wLjAuMQ..&hl=en&v=abc&size=invisible&cb=xyz"></iframe></div></div></body></html>`,
    ),
};

const DATADOME_HEADERS = {
  'x-datadome': 'protected',
  'x-dd-b': '1',
  'x-datadome-cid': 'AHrlqAAAAAMAx9Ev2nU0aZoAAAAAAA==',
  'Set-Cookie': 'datadome=Abc123~Def456; Max-Age=31536000; Path=/; SameSite=Lax',
  'Cache-Control': 'max-age=0, private, no-cache, no-store, must-revalidate',
  Pragma: 'no-cache',
  'Accept-CH':
    'Sec-CH-UA,Sec-CH-UA-Mobile,Sec-CH-UA-Platform,Sec-CH-UA-Arch,Sec-CH-UA-Full-Version-List,Sec-CH-UA-Model,Sec-CH-Device-Memory',
};

/** DataDome's block page: a message shown late, the `dd` options (rt: c CAPTCHA, i device check) and its script. */
function datadomePage(rt: 'c' | 'i', script: string): string {
  return `<html lang="en"><head><title>127.0.0.1</title><style>#cmsg{animation: A 1.5s;}@keyframes A{0%{opacity:0;}99%{opacity:0;}100%{opacity:1;}}</style></head><body style="margin:0"><p id="cmsg">Please enable JS and disable any ad blocker</p><script data-cfasync="false">var dd={'rt':'${rt}','cid':'AHrlqAAAAAMAx9Ev2nU0aZoAAAAAAA==','hsh':'A1B2C3D4E5F6A7B8C9D0E1F2A3B4C5','t':'fe','s':41234,'e':'a1b2c3d4e5f6','host':'geo.captcha-delivery.com','cookie':'Abc123~Def456'}</script><script data-cfasync="false" src="${script}"></script></body></html>`;
}

const IMPERVA_HEADERS = {
  'x-iinfo': '13-12345678-0 0NNN RT(1730000000000 0) q(0 -1 -1 -1) r(0 -1)',
  'x-cdn': 'Imperva',
  'Set-Cookie': [
    'visid_incap_123456=AbCdEfGh; expires=Fri, 31 Oct 2025 00:00:00 GMT; HttpOnly; path=/',
    'incap_ses_789_123456=IjKlMnOp; path=/',
  ],
  'Cache-Control': 'no-cache, no-store',
};

/** Imperva's incident page: nothing but its frame (`edet` is the incident's detail code). */
function impervaPage(edet: string): string {
  return `<html style="height:100%"><head><META NAME="ROBOTS" CONTENT="NOINDEX, NOFOLLOW"><meta name="format-detection" content="telephone=no"><meta name="viewport" content="initial-scale=1.0"><meta http-equiv="X-UA-Compatible" content="IE=edge,chrome=1"></head><body style="margin:0px;height:100%"><iframe id="main-iframe" src="/_Incapsula_Resource?CWUDNSAI=23&xinfo=13-12345678-0%200NNN%20RT%281730000000000%200%29&incident_id=1234000560123456789-987654321012345678&edet=${edet}&cinfo=ffffffff&rpinfo=0&mth=GET" frameborder=0 width="100%" height="100%" marginheight="0px" marginwidth="0px">Request unsuccessful. Incapsula incident ID: 1234000560123456789-987654321012345678</iframe></body></html>`;
}

/**
 * AWS WAF's interstitial for an action (challenge: 202, captcha: 405, as x-amzn-waf-action says):
 * the integration's options, its script, and what the page does with it.
 */
function sendAwsWaf(res: ServerResponse, action: 'challenge' | 'captcha', script: string, body: string): void {
  const headers = {
    'x-amzn-waf-action': action,
    'Cache-Control': 'no-store, max-age=0',
    'Access-Control-Expose-Headers': 'x-amzn-waf-action',
  };
  send(
    res,
    action === 'challenge' ? 202 : 405,
    headers,
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title></title><style>body{font-family:Arial,sans-serif}</style><script>window.awsWafCookieDomainList = [];window.gokuProps = {"key":"AQIDAHjcYu/GjX+QlghicBgQ/7bFaQZ+m5FKCMDnO+vTbNg96AE","iv":"CgAE3zJyCQAAAAAA","context":"Example+context+value"};</script><script src="${script}"></script></head><body>${body}<noscript><h1>JavaScript is disabled</h1>In order to continue, you need to verify that you're not a robot by solving a CAPTCHA puzzle.</noscript></body></html>`,
  );
}
