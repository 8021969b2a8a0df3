// Opens a context's page without the browser's own UI pages running beside it. Chromium (156 here,
// headless=new) opens a window per browser context, and every window preloads its omnibox popup as
// WebUI pages ("browser_ui" targets, chrome://omnibox-popup.top-chrome/) in a renderer of their own.
// A headless page never shows them, yet once loaded they keep that renderer busy for the context's
// whole life, the largest share of Chromium's CPU per request under load (docs/browser-sessions.md).
// Closed right after the page's target is created they never get that far; closed later they
// keep running. So the page's target is created here rather than by context.newPage(), then handed
// to puppeteer as usual. The page, its frames and its rendering are untouched; a browser without
// such targets (another build, the edge) just has nothing to close.
import type { Browser, BrowserContext, CDPSession, Page } from '@cloudflare/puppeteer';
import { targetId as targetIdOf } from '../cdp-internals.js';

interface TargetInfo {
  targetId: string;
  type: string;
  browserContextId?: string;
}

/** How long puppeteer may take to attach to a target it was told about. */
const ATTACH_TIMEOUT_MS = 10_000;

const sessions = new WeakMap<Browser, Promise<CDPSession | undefined>>();

/** A CDP session on the browser target itself, where Target.* commands act browser-wide (one per browser). */
function browserSession(browser: Browser): Promise<CDPSession | undefined> {
  let session = sessions.get(browser);
  if (session === undefined) {
    session = browser
      .target()
      .createCDPSession()
      .catch(() => undefined);
    sessions.set(browser, session);
  }
  return session;
}

/** A new page in `context`, its window's browser UI closed before it starts. */
export async function newPageWithoutBrowserUi(context: BrowserContext): Promise<Page> {
  const browserContextId = context.id;
  if (browserContextId === undefined) return context.newPage();
  const browser = context.browser();
  const session = await browserSession(browser);
  if (session === undefined) return context.newPage();
  let targetId: string;
  try {
    ({ targetId } = await session.send('Target.createTarget', { url: 'about:blank', browserContextId }));
  } catch {
    // The browser-target session went away (the browser itself may still be fine): make a new one
    // next time, and let puppeteer open this page its own way (it fails too if the browser is gone).
    sessions.delete(browser);
    return context.newPage();
  }
  // The close is sent at once (its timing is what matters); puppeteer attaches meanwhile.
  const [, target] = await Promise.all([
    closeBrowserUi(session, browserContextId),
    browser.waitForTarget((candidate) => targetIdOf(candidate) === targetId, { timeout: ATTACH_TIMEOUT_MS }),
  ]);
  const page = await target.page();
  if (page === null) throw new Error(`target ${targetId} has no page`);
  return page;
}

async function closeBrowserUi(session: CDPSession, browserContextId: string): Promise<void> {
  try {
    const { targetInfos } = (await session.send('Target.getTargets', {
      filter: [{ type: 'browser_ui' }],
    })) as { targetInfos: TargetInfo[] };
    const own = targetInfos.filter((info) => info.type === 'browser_ui' && info.browserContextId === browserContextId);
    await Promise.all(own.map(({ targetId }) => session.send('Target.closeTarget', { targetId }).catch(() => undefined)));
  } catch {
    // A browser without the filter or without such targets: the page works the same either way.
  }
}
