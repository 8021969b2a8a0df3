// Loads one URL in a prepared page (page-setup.ts), waits per docs/api.md "Waiting", and returns the
// serialized DOM as plain data. Budgets: the main document must answer (commit: its response headers
// arrived and the frame moved to it) within navigationTimeoutMs, else 504; the wait event is awaited
// until waitMs after navigation start, else the page is taken as it stands (waitResult "timeout").
// A body that never completes (a hung, trickling or reset connection) does not extend the budget; only
// a document that answered late gets BODY_GRACE_MS for its body. A target that answers an error
// status with no body, or a status without content (204, 205, 304), is answered at once as an empty
// page with that status (Chrome would show its own error page, or stay where it was: never the
// target's content). Once the wait event fired, `scroll` scrolls through the page and waits for the
// event again, and `wait_for_selector` waits for a rendered match, all within the same budget
// (page-waits.ts). The page read is judged a bot wall or not (src/blocked/); a challenge is waited
// through while the budget lasts (challenge-wait.ts), and a wall is read whole, never its main
// content. A main document that may be a PDF is held unread by the request filter and answered by
// pdf-answer.ts instead: read out of the browser and converted. Closing the page is the caller's job.
import type { HTTPResponse } from '@cloudflare/puppeteer';
import { type AnswerKind, documentKind } from '../../shared/content-type.js';
import { blockedVerdict, type MainResponse } from '../../blocked/verdict.js';
import { ApiError } from '../../errors.js';
import { forbiddenTarget } from '../../guard/policy.js';
import { NO_METADATA } from '../../shared/metadata.js';
import type { PhaseTimer } from '../../shared/timings.js';
import type { WaitEvent, WaitResult } from '../../shared/wait-events.js';
import { watchMainDocument, type MainDocument } from './main-document.js';
import { navigationError, netErrorName } from './navigation-errors.js';
import { trackNetwork, type NetworkTracker } from './network-tracker.js';
import type { HeldDocument } from './held-document.js';
import { watchPageFailures } from './page-failures.js';
import { pdfAnswer, refuseForbiddenPdfAddress } from '../read/pdf-answer.js';
import { scrollThrough, selectorsAccepted, waitForRendered } from './page-waits.js';
import type { PreparedPage } from './page-setup.js';
import type { ContentForm, LoadOptions, RenderedPage } from '../render-call.js';
import { type PageRead, readBoundMs, serializePage } from '../read/serialize.js';
import { type Taken, waitThroughChallenge } from './challenge-wait.js';
import { takeScreenshot } from '../read/screenshot.js';
import { Timers } from '../timers.js';

/** How long after an aborted navigation to wait for Chrome to say it was a download. */
const DOWNLOAD_GRACE_MS = 250;
/** Statuses whose response has no content by HTTP: Chrome aborts the navigation and stays where it was. */
const NO_CONTENT_STATUSES = new Set([204, 205, 304]);
/**
 * A document that answers near or after the end of the budget gets this long from its answer for its
 * body to arrive, so the page taken is the document rather than an empty shell. A body still incomplete
 * by then is taken as it stands.
 */
export const BODY_GRACE_MS = 1000;

/** What loading needs of a prepared page. */
export type LoadablePage = Pick<
  PreparedPage,
  | 'page'
  | 'proxyName'
  | 'guard'
  | 'forbiddenNavigation'
  | 'heldDocument'
  | 'loadMedia'
  | 'consent'
  | 'keepConsentDialogs'
  | 'consentRound'
  | 'shapeVisit'
>;

function readinessSignal(event: WaitEvent, doc: MainDocument, network: NetworkTracker): Promise<void> {
  switch (event) {
    case 'DOMContentLoaded':
      return doc.domContentLoaded;
    case 'load':
      return doc.load;
    case 'networkAlmostIdle':
      return network.idle(2);
    case 'networkIdle':
      return network.idle(0);
  }
}

/**
 * What an empty document reads as (Chrome's serialization of one), for a target that answered with
 * nothing to show: an error status with no body (Chrome shows its own error page, which is never the
 * target's content) or a status without content (204, 205, 304: Chrome stays where it was).
 */
const EMPTY_DOCUMENT_HTML = '<html><head></head><body></body></html>';

/**
 * How the navigation ended: the target's document committed, the target answered with nothing to
 * show, or its response may be a PDF and is held unread in the browser.
 */
type Answer = 'document' | 'empty' | { held: HeldDocument };

const answeredWithoutContent = (doc: MainDocument) => NO_CONTENT_STATUSES.has(doc.response()?.status() ?? 0);

async function navigate(target: LoadablePage, options: LoadOptions, doc: MainDocument, timers: Timers): Promise<Answer> {
  const { page, proxyName } = target;
  // goto's own waiting is not used: its rejection reports net errors, our signals do the rest.
  const failed = page.goto(options.url, { waitUntil: 'load', timeout: 0 }).then(
    () => new Promise<never>(() => undefined),
    (error: unknown) => error,
  );
  const outcome = await Promise.race([
    doc.committed.then(() => ({ kind: 'committed' as const })),
    doc.emptyErrorResponse.then(() => ({ kind: 'empty' as const })),
    doc.unsupported.then((reason) => ({ kind: 'unsupported' as const, reason })),
    target.heldDocument.then((held) => ({ kind: 'held' as const, held })),
    target.forbiddenNavigation.then((reason) => ({ kind: 'forbidden' as const, reason })),
    doc.forbiddenAddress.then((reason) => ({ kind: 'forbidden' as const, reason })),
    failed.then((error) => ({ kind: 'failed' as const, error })),
    timers.after(options.navigationTimeoutMs, { kind: 'timeout' as const }),
  ]);
  switch (outcome.kind) {
    case 'committed':
    case 'empty':
      // Chrome shows a proxy's 407 as the page once the credentials are refused again.
      if (proxyName !== undefined && doc.response()?.status() === 407) {
        throw new ApiError('proxy_error', `The upstream proxy "${proxyName}" rejected the credentials (407).`);
      }
      return outcome.kind === 'committed' ? 'document' : 'empty';
    case 'held':
      // With the guard on, the address its raw headers came from is judged before anything is read.
      await refuseForbiddenPdfAddress(outcome.held, doc, target.guard, timers);
      return { held: outcome.held };
    case 'unsupported':
      throw new ApiError('unsupported_content', outcome.reason);
    case 'forbidden':
      throw forbiddenTarget(outcome.reason, true);
    case 'failed': {
      // A download aborts the navigation first and is identified a moment later; so does a response
      // without content, which is the target's answer (an empty one), not a failure.
      if (netErrorName(outcome.error) === 'ERR_ABORTED') {
        if (answeredWithoutContent(doc)) return 'empty';
        const download = await Promise.race([doc.unsupported, timers.after(DOWNLOAD_GRACE_MS, undefined)]);
        if (download !== undefined) throw new ApiError('unsupported_content', download);
        if (answeredWithoutContent(doc)) return 'empty';
      }
      throw navigationError(outcome.error, proxyName);
    }
    case 'timeout':
      throw new ApiError('target_timeout', `The target did not answer within ${options.navigationTimeoutMs} ms.`);
  }
}

/**
 * The wait event, then a consent dialog's answer, the scroll and the selector when there is one to
 * wait for; 'timeout' as soon as the budget runs out.
 */
async function waitWithinBudget(target: LoadablePage, options: LoadOptions, watchers: LoadWatchers, deadline: number): Promise<WaitResult> {
  const { doc, network, timers } = watchers;
  const inBudget = <T>(work: Promise<T>) => timers.within(deadline, work);
  const waitEvent = () => inBudget(readinessSignal(options.waitEvent, doc, network).then(() => 'event' as const));
  // What `work` made the page load is waited for as the page was: the same event, again (work that
  // loaded nothing left the event standing).
  const thenEventIfLoaded = async (work: Promise<unknown>): Promise<WaitResult> => {
    const startedBefore = network.started();
    if ((await inBudget(work)) === 'timeout') return 'timeout';
    return network.started() === startedBefore ? 'event' : waitEvent();
  };
  // The page is taken after the consent engine looked at it as it is (one round in every frame, each
  // dialog found answered) and every dialog some frame reported is answered.
  const answerConsent = () => thenEventIfLoaded(target.consentRound().then(() => target.consent.settled()));
  if ((await waitEvent()) === 'timeout') return 'timeout';
  if ((await answerConsent()) === 'timeout') return 'timeout';
  if (options.scrollSteps > 0) {
    const scrolled = thenEventIfLoaded(scrollThrough(target.page, network, options.scrollSteps, deadline, timers));
    if ((await scrolled) === 'timeout') return 'timeout';
  }
  // Raced with the budget too: a page whose scripts never yield never answers the look.
  if (options.waitForSelector !== undefined) {
    const rendered = await inBudget(waitForRendered(target.page, options.waitForSelector, deadline, timers));
    if (rendered !== true) return 'timeout';
  }
  // Scrolling and waiting let the page change: the engine looks again at what is taken.
  if (options.scrollSteps > 0 || options.waitForSelector !== undefined) return answerConsent();
  return 'event';
}

async function waitForReadiness(
  target: LoadablePage,
  options: LoadOptions,
  watchers: LoadWatchers,
  times: { navigationStart: number; answered: number },
): Promise<WaitResult> {
  const { doc, timers } = watchers;
  const result = await waitWithinBudget(target, options, watchers, times.navigationStart + options.waitMs);
  if (result === 'timeout') {
    const graceLeft = times.answered + BODY_GRACE_MS - Date.now();
    if (graceLeft > 0) await Promise.race([doc.domContentLoaded, doc.bodyEnded, timers.after(graceLeft, undefined)]);
  }
  return result;
}

/** Whether serialized HTML holds nothing: no document at all, or a body with only white space. */
function isEmptyDocument(html: string): boolean {
  return !/<body[^>]*>\s*(?!<\/body>)\S/i.test(html);
}

interface LoadWatchers {
  doc: MainDocument;
  network: NetworkTracker;
  timers: Timers;
}

/**
 * Whether the main document is HTML: only an HTML document has a reader form (and main content);
 * text, JSON and XML are read as the browser holds them, whole.
 */
function isHtmlDocument(doc: MainDocument): boolean {
  return documentKind(doc.response()?.headers()['content-type']) === 'html';
}

/** What the browser rendered, for X-Document-Kind (Chrome sniffs an untyped document as HTML, or shows it as text). */
function renderedKind(doc: MainDocument): AnswerKind {
  return documentKind(doc.response()?.headers()['content-type']) ?? 'html';
}

function contentForm(options: LoadOptions, doc: MainDocument): ContentForm {
  return options.format === 'markdown' && isHtmlDocument(doc) ? 'markdown' : 'html';
}

/** The main document's status and headers as the verdict on walls takes them (none yet reads as a 200). */
function responseOf(doc: MainDocument): MainResponse {
  const response = doc.response();
  return { status: response?.status() ?? 200, headers: response?.headers() ?? {} };
}

/** A target that answered with nothing to show: its status and headers, an empty document, nothing to wait for. */
function emptyAnswer(options: LoadOptions, doc: MainDocument, response: HTTPResponse): RenderedPage {
  const form = contentForm(options, doc);
  // A wall's edge may answer with headers alone (a refusal with a vendor's headers and no body).
  const blocked = blockedVerdict(responseOf(doc));
  return {
    content: form === 'markdown' ? '' : EMPTY_DOCUMENT_HTML,
    form,
    ...(options.metadata ? { metadata: { ...NO_METADATA } } : {}),
    ...(options.mainContent ? { contentMode: 'full' as const } : {}),
    finalUrl: response.url(),
    status: response.status(),
    headers: response.headers(),
    waitResult: 'event',
    documentKind: renderedKind(doc),
    ...(blocked === undefined ? {} : { blocked }),
  };
}

/** The request's CSS selectors by the field that holds each (`include_selectors[2]`). */
function selectorFields(options: LoadOptions): [string, string][] {
  const listed = (field: string, selectors: string[] = []) => selectors.map((s, i): [string, string] => [`${field}[${i}]`, s]);
  return [
    ...(options.waitForSelector === undefined ? [] : [['wait_for_selector', options.waitForSelector] as [string, string]]),
    ...listed('include_selectors', options.selection?.include),
    ...listed('exclude_selectors', options.selection?.exclude),
    ...(options.screenshot?.selector === undefined ? [] : [['screenshot.selector', options.screenshot.selector] as [string, string]]),
  ];
}

/**
 * A selector Chromium refuses is the caller's error, answered before the target is loaded: the
 * Worker checked the syntax, the fresh page (still about:blank) judges the rest in one call.
 */
async function refuseSelectorsChromiumRefuses(page: LoadablePage['page'], options: LoadOptions): Promise<void> {
  const fields = selectorFields(options);
  const accepted = await selectorsAccepted(
    page,
    fields.map(([, selector]) => selector),
  );
  const refused = fields.filter((_, i) => accepted[i] !== true);
  if (refused.length === 0) return;
  throw new ApiError('invalid_request', 'The request has invalid fields.', {
    details: refused.map(([field]) => ({ field, message: 'is not a CSS selector this browser accepts' })),
  });
}

/** A read of the page as it stands and the verdict on it: a bot wall or the target's content. */
interface TakenPage extends Taken {
  read: PageRead;
  form: ContentForm;
}

/**
 * Reads the page in the form asked (its main content when asked, unless `whole`) and judges whether
 * it is a bot wall by the main document's status and headers and what the read saw (src/blocked/).
 */
async function takePage(
  target: LoadablePage,
  options: LoadOptions,
  timer: PhaseTimer,
  watchers: LoadWatchers,
  whole = false,
): Promise<TakenPage> {
  const { doc, timers } = watchers;
  const form = contentForm(options, doc);
  const mainContent = options.mainContent && isHtmlDocument(doc) && !whole;
  const mode = form === 'html' && mainContent ? 'main-html' : form;
  // Selectors pick parts of an HTML document; any other document is read whole.
  const selection = isHtmlDocument(doc) ? options.selection : undefined;
  // Links and images are those of an HTML document; any other has none.
  const views = isHtmlDocument(doc) ? options.views : undefined;
  const read = await timer.time('serialize', () =>
    serializePage(
      target.page,
      mode,
      options.maxContentBytes,
      { timers, boundMs: readBoundMs(options) },
      { metadata: options.metadata, mainContent, selection, ...(views === undefined ? {} : { views }) },
    ),
  );
  const blocked = blockedVerdict(responseOf(doc), read.wallSignals);
  return { read, form, ...(blocked === undefined ? {} : { blocked }) };
}

async function load(target: LoadablePage, options: LoadOptions, timer: PhaseTimer, watchers: LoadWatchers): Promise<RenderedPage> {
  const { page } = target;
  const { doc, timers } = watchers;
  await refuseSelectorsChromiumRefuses(page, options);
  if (options.consent === 'keep') await target.keepConsentDialogs();
  if (options.loadMedia) await target.loadMedia();
  if (options.visit !== undefined) await target.shapeVisit(options.visit, options.url);
  const navigationStart = Date.now();
  const answer = await timer.time('navigate', () => navigate(target, options, doc, timers));
  if (typeof answer === 'object') {
    const deadline = navigationStart + options.navigationTimeoutMs;
    return pdfAnswer(answer.held, options, { timers, timer, deadline });
  }
  const emptyResponse = doc.response();
  if (answer === 'empty' && emptyResponse !== undefined) return emptyAnswer(options, doc, emptyResponse);
  const times = { navigationStart, answered: Date.now() };
  const firstWait = await timer.time('wait', () => waitForReadiness(target, options, watchers, times));
  const deadline = navigationStart + options.waitMs;
  const take = () => takePage(target, options, timer, watchers);
  const { taken, waitResult } = await waitThroughChallenge(
    { taken: await take(), waitResult: firstWait },
    {
      watchNext: () => watchMainDocument(page, target.guard, options.maxContentBytes),
      settle: (next) => waitWithinBudget(target, options, { ...watchers, doc: next }, deadline),
      take,
    },
    { deadline, timers, timer },
  );
  const { form, blocked } = taken;
  // A wall has no main content to find: it is answered whole (docs/api.md "Blocked pages").
  const read =
    blocked !== undefined && taken.read.contentMode === 'main' ? (await takePage(target, options, timer, watchers, true)).read : taken.read;
  const { content, metadata, contentMode, selectorMatches, views: gathered } = read;
  const shot = options.screenshot === undefined ? {} : await timer.time('screenshot', () => screenshotOf(page, options, timers));
  const bodyFailure = doc.bodyFailure();
  // The document answered, then broke off before any of its content arrived: nothing to return.
  if (bodyFailure !== undefined && (form === 'html' ? isEmptyDocument(content) : content.trim() === '')) {
    throw new ApiError('target_unreachable', `The target's response broke off before any content (${bodyFailure}).`);
  }
  const response = doc.response();
  return {
    content,
    form,
    ...(metadata === undefined ? {} : { metadata }),
    ...(options.mainContent ? { contentMode: contentMode ?? 'full' } : {}),
    ...(selectorMatches === undefined ? {} : { selectorMatches }),
    ...gathered,
    ...shot,
    finalUrl: page.url(),
    status: response?.status() ?? 200,
    headers: response?.headers() ?? {},
    waitResult,
    documentKind: renderedKind(doc),
    ...(blocked === undefined ? {} : { blocked }),
  };
}

/** The screenshot asked for, as the rendered page carries it. */
async function screenshotOf(page: LoadablePage['page'], options: LoadOptions, timers: Timers): Promise<Partial<RenderedPage>> {
  const { maxHeight, ...request } = options.screenshot!;
  const bound = { timers, boundMs: readBoundMs(options) };
  const { screenshot, matches, truncated } = await takeScreenshot(
    page,
    { ...request, maxHeight, maxBytes: options.maxContentBytes },
    bound,
  );
  return {
    ...(screenshot === undefined ? {} : { screenshot }),
    ...(matches === undefined ? {} : { screenshotMatches: matches }),
    ...(truncated ? { screenshotTruncated: true } : {}),
  };
}

/** Navigates the prepared page to `options.url`, waits, and serializes; the page is left open. */
export async function loadPage(target: LoadablePage, options: LoadOptions, timer: PhaseTimer): Promise<RenderedPage> {
  const doc = watchMainDocument(target.page, target.guard, options.maxContentBytes);
  const failures = watchPageFailures(target.page, doc, options.maxContentBytes);
  const watchers = { doc, network: trackNetwork(target.page), timers: new Timers() };
  try {
    // A failure ends the load whatever phase it is in; the phases left behind wait on cleared timers.
    return await Promise.race([load(target, options, timer, watchers), failures.failed]);
  } finally {
    watchers.timers.clear();
    watchers.network.dispose();
    failures.dispose();
    doc.dispose();
  }
}
