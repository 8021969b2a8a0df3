// What the Durable Object asks of the in-page script (page-script.ts) and what it answers: plain
// values, sent as a CDP call argument and returned by value. No DOM types: the Durable Object side
// imports this file too.
import type { PageMetadata } from '../shared/metadata';
import type { WallSignals } from '../blocked/verdict';

/** Bounds of one read: the result's size in characters, and the iframes inlined and how deep. */
export interface ReadBounds {
  maxChars: number;
  maxFrames: number;
  /** Frame levels still allowed below this document (1: its own iframes are not inlined). */
  maxFrameDepth: number;
}

/**
 * A reader form in transit between frames: a flat list, so that no nesting depth can break its
 * transfer. A string is a text node, `[localName, name, value, name, value, …]` opens an element,
 * 0 closes the innermost open one.
 */
export type PortableTree = Array<string | string[] | 0>;

/** A read of the whole page may bring the page's metadata (include_metadata) in the same reply. */
interface PageReadFlags {
  metadata?: boolean;
  /** Only these parts of the document (include_selectors, exclude_selectors). */
  selection?: PartSelection;
  /** The page's links and images, gathered from the same reader form (include_links, include_images). */
  views?: ViewRequest;
}

/** Which lists of the page a read gathers beside its content (docs/api.md "Links, images and screenshots"). */
export interface ViewRequest {
  links?: boolean;
  images?: boolean;
}

/** Where a link or an image stands: in the main content, else the innermost landmark around it. */
export type Region = 'main' | 'navigation' | 'header' | 'footer' | 'aside' | 'other';

export interface PageLink {
  /** Absolute, fragment kept. */
  url: string;
  /** The accessible text of its first occurrence; "" when it has none. */
  text: string;
  region: Region;
  /** The host is the page's final host or one of its subdomains. */
  internal: boolean;
}

export interface PageImage {
  /** Absolute: the source the browser uses. */
  url: string;
  alt: string;
  /** Rendered size in CSS px. */
  width: number;
  height: number;
  region: Region;
}

/** The lists a read gathered, each present when asked. */
export interface PageViews {
  links?: PageLink[];
  images?: PageImage[];
}

export type PageRequest =
  /** The DOM as it stands, shadow roots as declarative shadow DOM. */
  | ({ mode: 'html'; maxChars: number } & Partial<Omit<ReadBounds, 'maxChars'>> & PageReadFlags)
  /** Markdown of what a reader sees in the document, or of its main content. */
  | ({ mode: 'markdown'; mainContent: boolean } & ReadBounds & PageReadFlags)
  /** HTML of the main content in a minimal document, else the DOM as it stands (only_main_content, html output). */
  | ({ mode: 'main-html' } & ReadBounds & PageReadFlags)
  /** The reader form of a cross-origin frame's body, to be grafted where its iframe stands (its images' sizes marked with views). */
  | ({ mode: 'frame'; views?: ViewRequest } & ReadBounds)
  /** Finishes a read that asked for cross-origin frames: their trees by key (null: left out). */
  | { mode: 'graft'; trees: Record<string, PortableTree | null> }
  /** Finishes a read that asked for the second extractor, once its script has run in the same world. */
  | { mode: 'resume' };

/** Whether a read gave the main content or, none being told apart, the whole page. */
export type ContentMode = 'main' | 'full';

/** What a read of the whole page tells besides its content; `wallSignals` only when the page shows a wall's marker. */
export interface ReadExtras {
  contentMode?: ContentMode;
  metadata?: PageMetadata;
  selectorMatches?: number;
  wallSignals?: WallSignals;
  /** The links and images asked for (include_links, include_images). */
  views?: PageViews;
}

export type PageReply =
  | ({ kind: 'html'; html: string } & ReadExtras)
  | ({ kind: 'markdown'; markdown: string } & ReadExtras)
  | { kind: 'frame'; tree: PortableTree }
  /** The document holds cross-origin frames to read first (keys registered by remote-frames.ts); answer with 'graft'. */
  | { kind: 'frames-needed'; keys: string[] }
  /** Its extract is questioned: run the second extractor's script in the same world, then answer with 'resume'. */
  | { kind: 'second-extractor-needed' }
  /** Longer than maxChars: never shipped. */
  | { kind: 'too-large' };

/** The isolated world's global that maps a cross-origin frame's `<iframe>` to its key. */
export const FRAME_KEYS_GLOBAL = 'pageFetchFrameKeys';

/** The isolated world's global that holds the second extractor once its script has run (main-content/second-opinion.ts). */
export const SECOND_EXTRACTOR_GLOBAL = 'pageFetchSecondExtractor';

/** What the Durable Object asks of the in-page wait script (scripts/wait.ts, browser/page/page-waits.ts). */
export type WaitRequest =
  /** Whether Chromium's own parser takes each selector (asked on the fresh page, before navigation): booleans. */
  | { action: 'selectors-valid'; selectors: string[] }
  /** Resolves true once an element matching the selector is rendered, false after `timeoutMs`. */
  | { action: 'rendered'; selector: string; timeoutMs: number }
  /** Scrolls one viewport down; resolves two frames later. */
  | { action: 'scroll' }
  /** Where the document stands: a ScrollReading. */
  | { action: 'reading' };

export interface ScrollReading {
  /** The viewport's bottom edge is at the end of the document (within a pixel). */
  atBottom: boolean;
  /** The document's scrollable height, in CSS pixels. */
  height: number;
}

/** The parts of a document a read keeps (docs/api.md "Selecting parts"): CSS selectors, checked already. */
export interface PartSelection {
  /** Only what these match (and what is inside it); absent: everything. */
  include?: string[];
  /** Never what these match, nor what is inside it. */
  exclude?: string[];
}

/** The binding the consent preload reports through (a CDP binding in every frame's main world). */
export const CONSENT_BINDING = 'pageFetchConsentReport';

/**
 * The main-world function the consent preload defines in each document it runs in: one detection
 * round on the document as it is now; resolves once a dialog it found (or one being answered
 * already) has its answer, at once when there is none.
 */
export const CONSENT_ROUND = 'pageFetchConsentRound';

/**
 * What CONSENT_ROUND is given to ask, instead of a round, whether a dialog its document declined
 * still shows: a platform may close its dialog a little after the answer (a frame telling its page).
 */
export const CONSENT_STILL_SHOWN = 'still-shown';

/**
 * What the consent preload asks when its document's URL holds a site rule's text: the rules for
 * that URL and frame kind. The answer is the JSON of a compact rule set, or null (refused: the
 * document runs the rules it carries).
 */
export interface ConsentRulesRequest {
  rulesFor: string;
  mainFrame: boolean;
}

/** What the consent preload reports of one frame's dialog. */
export interface ConsentReport {
  /** A random id of the frame's document. */
  frame: string;
  /** found: a dialog is open; declined / failed: the answer's outcome; done: the platform closed it. */
  event: 'found' | 'declined' | 'failed' | 'done';
  /** The consent platform's rule name. */
  cmp: string;
}

/** What the Durable Object asks of the in-page screenshot script (scripts/screenshot.ts, browser/read/screenshot.ts). */
export type ScreenshotPageRequest =
  /** The area to capture, in document CSS px: a ScreenshotArea, or null when no element matching `selector` is rendered. */
  | { action: 'area'; fullPage: boolean; selector?: string }
  /** Draws one captured tile (base64, its media type) at `y` device px on the picture's canvas of `width` × `height`. */
  | { action: 'tile'; data: string; type: string; y: number; width: number; height: number }
  /** The picture drawn, encoded as `type` (quality 1–100 for jpeg and webp), base64. */
  | { action: 'encode'; type: string; quality?: number };

export interface ScreenshotArea {
  x: number;
  y: number;
  width: number;
  height: number;
  /** The device pixel ratio: the image's pixels per CSS px. */
  scale: number;
  /** The document's full scrollable height, in CSS px (a full page taller than the bound is cut). */
  pageHeight: number;
  /** The viewport as it stands, in document CSS px (without scroll bars): a picture within it is captured as shown. */
  viewport: { x: number; y: number; width: number; height: number };
}
