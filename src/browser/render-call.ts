// What crosses the RPC seams between the Worker, the location's BrowserDirectory and its BrowserHubs:
// the render call and its outcome, as plain data (class instances such as ApiError do not survive
// RPC; errors travel as WireError). Pure: no Workers runtime imports, so the api layer and its unit
// tests can use it.
import type { Blocked } from '../blocked/verdict.js';
import type { ConsentChoice } from '../shared/consent.js';
import type { AnswerKind } from '../shared/content-type.js';
import type { WireError } from '../errors.js';
import type { ContentMode, PageImage, PageLink, PartSelection, ViewRequest } from '../in-page/protocol.js';
import type { GuardSettings } from '../guard/policy.js';
import type { BrowserLocation } from '../shared/locations.js';
import type { PageMetadata } from '../shared/metadata.js';
import type { Screenshot, ScreenshotRequest } from '../shared/screenshot.js';
import type { Phase } from '../shared/timings.js';
import type { Visit } from '../shared/visit.js';
import type { WaitEvent, WaitResult } from '../shared/wait-events.js';

/** An upstream proxy, resolved for one request: the username already has its country applied. */
export interface ProxyRoute {
  name: string;
  /** Proxy server URL as Chrome takes it, e.g. "http://host:port". */
  server: string;
  username?: string;
  password?: string;
}

/** How the page is opened, before it navigates (page-setup.ts). */
export interface PageSetup {
  /** Route the page's context through this proxy; absent for the browser's own egress. */
  proxy?: ProxyRoute;
  /** Do not download images, media and fonts. */
  blockResources: boolean;
  guard: GuardSettings;
}

/** How the page is loaded and read (page-load.ts), per docs/api.md "Waiting". */
export interface LoadOptions {
  url: string;
  waitEvent: WaitEvent;
  /** The waiting budget, counted from navigation start, in ms. */
  waitMs: number;
  /** Also wait for an element matching this CSS selector to be rendered, within the same budget. */
  waitForSelector?: string;
  /** Viewports to scroll through before the page is taken (MAX_SCROLL_STEPS with scroll: true); 0: no scrolling. */
  scrollSteps: number;
  /** The parts of an HTML document to read (include_selectors, exclude_selectors); absent: the whole page. */
  selection?: PartSelection;
  /** Cookie-consent dialogs: declined ("reject") or left as served ("keep"). */
  consent: ConsentChoice;
  /** The main document must answer within this, in ms, else 504. */
  navigationTimeoutMs: number;
  maxContentBytes: number;
  /** A PDF target larger than this is refused (MAX_PDF_BYTES). */
  maxPdfBytes: number;
  /** Pages of a PDF converted at most (MAX_PDF_PAGES); the rest is cut. */
  maxPdfPages: number;
  /** The form the caller wants: markdown of an HTML document is made in the page. */
  format: ContentForm;
  /** Read the page's metadata too (include_metadata). */
  metadata: boolean;
  /** Only the page's main content (only_main_content). */
  mainContent: boolean;
  /**
   * Device, viewport, cookies and extra headers, applied to the page before it navigates
   * (docs/api.md "Request controls"); absent: the page as prepared.
   */
  visit?: Visit;
  /** Images, media and fonts load even where PageSetup blocks them: the answer shows them (include_images, a screenshot). */
  loadMedia?: boolean;
  /** The page's links and images, gathered by the same read (include_links, include_images); absent: neither. */
  views?: ViewRequest;
  /** A picture of the page, taken when it is taken; maxHeight is MAX_SCREENSHOT_HEIGHT. */
  screenshot?: ScreenshotRequest & { maxHeight: number };
}

export interface FleetSettings {
  /** Browsers (hubs) of a launch location. */
  maxBrowsers: number;
  /** Pages one browser holds at once, prepared spare pages included. */
  maxPages: number;
  /** How long a request may wait for a page before 503 browser_unavailable, in ms. */
  queueMs: number;
}

/** html: the DOM as it stands; markdown: what a reader sees, as markdown. */
export type ContentForm = 'html' | 'markdown';

export interface RenderCall {
  /** The launch location of the browser; absent for any. */
  location?: BrowserLocation;
  setup: PageSetup;
  load: LoadOptions;
  /** Close the browser after this long without requests, in ms. */
  idleCloseMs: number;
  /** The location's capacity (docs/api.md "Capacity and back-pressure"). */
  fleet: FleetSettings;
  /**
   * How long a browser launch Browser Rendering refuses may still be retried for this call, in ms:
   * what its queue time left when the directory placed it on a hub, so that its 503 comes within that time.
   * Absent: the pool's own retries.
   */
  launchRetryMs?: number;
  /**
   * Calls with the same key while one of them renders share that render (the Worker's cache key:
   * the same page and options). Absent: this call renders on its own.
   */
  shareKey?: string;
  /** A page of a crawl or batch job: it gives way to single fetches at the directory (docs/fleet.md "Job pages"). */
  jobPage?: boolean;
}

export interface RenderedPage {
  /**
   * The page in `form`: markdown when markdown was asked of an HTML document, else the HTML the
   * browser holds (for a text, JSON or XML document too, whose markdown the Worker makes).
   */
  content: string;
  form: ContentForm;
  /** Present when the call asked for it. */
  metadata?: PageMetadata;
  /** When the main content was asked for: `main`, or `full` when none could be told apart (the whole page). */
  contentMode?: ContentMode;
  /** With include selectors: how many elements they matched (nested ones included). */
  selectorMatches?: number;
  /** When asked for (include_links): every distinct link a reader sees; a document without a DOM has none. */
  links?: PageLink[];
  /** When asked for (include_images): every distinct image a reader sees. */
  images?: PageImage[];
  /** When asked for and taken (absent when its selector matched nothing rendered). */
  screenshot?: Screenshot;
  /** With a screenshot selector: 1 when one was taken, 0 when none is rendered (X-Screenshot-Matches). */
  screenshotMatches?: number;
  /** A full-page screenshot cut at MAX_SCREENSHOT_HEIGHT (X-Screenshot-Truncated). */
  screenshotTruncated?: boolean;
  finalUrl: string;
  status: number;
  /** Response headers of the final main document, names lowercase. */
  headers: Record<string, string>;
  waitResult: WaitResult;
  /** What was read (X-Document-Kind): the kind of document the browser rendered, or a converted PDF. */
  documentKind: AnswerKind;
  /** For a PDF: the pages converted and the pages it has (X-Pdf-Pages). */
  pdfPages?: { converted: number; total: number };
  /**
   * Present when the page taken is a bot wall, not the target's content (docs/api.md "Blocked
   * pages"): never stored, said by X-Page-Blocked; a crawl records the page as blocked.
   */
  blocked?: Blocked;
}

export type PhaseTimings = Partial<Record<Phase, number>>;

export type RenderOutcome =
  | { ok: true; page: RenderedPage; timings: PhaseTimings }
  | { ok: false; error: WireError; timings: PhaseTimings };
