// Shapes a prepared page for one request's visit (docs/api.md "Request controls") before it
// navigates: the device (a phone's metrics, touch and user agent), the viewport, the cookies (in the
// request's own context) and the extra headers (origin-headers.ts, sent by the request filter). A
// page is prepared before its request is known, so this is the per-request step; a request that sets
// none of these never comes here and keeps the prepared page as it is.
import type { Browser, CDPSession, Page } from '@cloudflare/puppeteer';
import type { Protocol } from 'devtools-protocol';
import type { Visit, VisitCookie } from '../../shared/visit.js';
import { pageSession } from '../cdp-internals.js';
import { originHeaders } from './origin-headers.js';
import type { RequestFilter } from './request-filter.js';

/** A phone: the CSS size and pixel ratio of a common one (390×844 at 3). */
export const MOBILE_SCREEN = { width: 390, height: 844, deviceScaleFactor: 3 } as const;
/** The desktop browser as prepared: puppeteer's default window, 800×600 at 1. */
const DESKTOP_SCREEN = { width: 800, height: 600, deviceScaleFactor: 1 } as const;

const versions = new WeakMap<Browser, Promise<{ product: string; userAgent: string }>>();

/** The browser's version and own user agent, asked once per browser. */
function browserIdentity(browser: Browser): Promise<{ product: string; userAgent: string }> {
  let identity = versions.get(browser);
  if (identity === undefined) {
    identity = Promise.all([browser.version(), browser.userAgent()]).then(([product, userAgent]) => ({ product, userAgent }));
    versions.set(browser, identity);
  }
  return identity;
}

/**
 * A phone's Chrome of the same major version as this browser, in Chrome's reduced user-agent form
 * (the one Chrome on Android sends), with its client hints.
 */
export function mobileUserAgent(product: string): { userAgent: string; metadata: Protocol.Emulation.UserAgentMetadata } {
  const major = /\/(\d+)/.exec(product)?.[1] ?? '0';
  const brands = [
    { brand: 'Chromium', version: major },
    { brand: 'Not_A Brand', version: '24' },
  ];
  return {
    userAgent: `Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Mobile Safari/537.36`,
    metadata: {
      brands,
      fullVersionList: brands.map(({ brand, version }) => ({ brand, version: `${version}.0.0.0` })),
      platform: 'Android',
      platformVersion: '10.0.0',
      architecture: '',
      model: 'K',
      mobile: true,
    },
  };
}

const SAME_SITE = { strict: 'Strict', lax: 'Lax', none: 'None' } as const;

/**
 * A cookie as CDP sets it, scoped as a Set-Cookie would be: without a domain it is host-only (set
 * through the URL), with one (the host itself or a parent) a domain cookie that its subdomains get
 * too; an IP address has no subdomains, so its cookie is always host-only. The path defaults to "/",
 * the whole site.
 */
function cdpCookie(cookie: VisitCookie, url: string): object {
  const isIpHost = /^[\d.]+$|:/.test(new URL(url).hostname.replace(/^\[|\]$/g, ''));
  // CDP makes a cookie host-only when its domain has no leading dot.
  const scope = cookie.domain === undefined || isIpHost ? { url } : { domain: `.${cookie.domain}` };
  return {
    name: cookie.name,
    value: cookie.value,
    ...scope,
    path: cookie.path ?? '/',
    ...(cookie.secure === undefined ? {} : { secure: cookie.secure }),
    ...(cookie.httpOnly === undefined ? {} : { httpOnly: cookie.httpOnly }),
    ...(cookie.sameSite === undefined ? {} : { sameSite: SAME_SITE[cookie.sameSite] }),
  };
}

async function emulateDevice(session: CDPSession, visit: Visit): Promise<void> {
  const mobile = visit.device === 'mobile';
  if (!mobile && visit.viewport === undefined) return;
  const screen = mobile ? MOBILE_SCREEN : DESKTOP_SCREEN;
  const { width, height } = visit.viewport ?? screen;
  await Promise.all([
    session.send('Emulation.setDeviceMetricsOverride', { width, height, deviceScaleFactor: screen.deviceScaleFactor, mobile }),
    // Touch is what makes (pointer: coarse) and (hover: none) match, and navigator.maxTouchPoints > 0.
    mobile ? session.send('Emulation.setTouchEmulationEnabled', { enabled: true, maxTouchPoints: 5 }) : undefined,
    mobile ? session.send('Emulation.setEmitTouchEventsForMouse', { enabled: true, configuration: 'mobile' }) : undefined,
  ]);
}

/**
 * The user agent and language the page and its requests carry: the caller's User-Agent and
 * Accept-Language headers, else a phone's for a mobile device. Returns the user agent another origin
 * gets in place of the caller's (a mobile device's; undefined: the browser's own).
 */
async function overrideIdentity(session: CDPSession, browser: Browser, visit: Visit): Promise<string | undefined> {
  const userAgent = visit.headers?.['user-agent'];
  const acceptLanguage = visit.headers?.['accept-language'];
  const mobile = visit.device === 'mobile';
  if (!mobile && userAgent === undefined && acceptLanguage === undefined) return undefined;
  const identity = await browserIdentity(browser);
  const device = mobile ? mobileUserAgent(identity.product) : undefined;
  await session.send('Emulation.setUserAgentOverride', {
    userAgent: userAgent ?? device?.userAgent ?? identity.userAgent,
    ...(acceptLanguage === undefined ? {} : { acceptLanguage: languageTags(acceptLanguage) }),
    ...(device === undefined ? {} : { platform: 'Linux armv8l', userAgentMetadata: device.metadata }),
  });
  return device?.userAgent;
}

/**
 * The languages of an Accept-Language value as the browser's override takes them ("de-CH,de"): its
 * own header adds weights, and navigator.languages must hold tags alone. The header the target's
 * origin gets is the caller's value as written (origin-headers.ts).
 */
export function languageTags(acceptLanguage: string): string {
  return acceptLanguage
    .split(',')
    .map((part) => part.split(';')[0]!.trim())
    .filter((tag) => tag !== '' && tag !== '*')
    .join(',');
}

/** Applies `visit` to `page` before it navigates to `url`. */
export async function shapeVisit(page: Page, filter: Pick<RequestFilter, 'sendHeaders'>, visit: Visit, url: string): Promise<void> {
  const session = pageSession(page) ?? (await page.createCDPSession());
  const [deviceUserAgent] = await Promise.all([
    overrideIdentity(session, page.browser(), visit),
    emulateDevice(session, visit),
    visit.cookies === undefined
      ? undefined
      : session.send('Network.setCookies', { cookies: visit.cookies.map((cookie) => cdpCookie(cookie, url)) as never }),
  ]);
  if (visit.headers !== undefined) await filter.sendHeaders(originHeaders(visit.headers, url, deviceUserAgent));
}
