// Takes the screenshot a request asks for once the page is taken (docs/api.md "Links, images and
// screenshots"): the viewport, the whole page or one element's box. A picture crosses CDP in tiles,
// each small enough for 4 MiB on the wire whatever it shows, and none taller than Chromium's texture
// bound (a taller capture comes back repeated or blank); tiles are glued in the page's own isolated
// world by the browser's decoder and encoder (in-page/compose-tiles.ts), and the result comes back in
// slices (docs/views.md "Stitching").
import type { Page } from '@cloudflare/puppeteer';
import SCREENSHOT_SCRIPT from '../../../build/page-script-screenshot.js?raw';
import { contentTooLarge } from '../../errors.js';
import type { ScreenshotArea, ScreenshotPageRequest } from '../../in-page/protocol.js';
import { mediaTypeOf, type Screenshot, type ScreenshotRequest } from '../../shared/screenshot.js';
import { pageSession } from '../cdp-internals.js';
import type { Timers } from '../timers.js';
import { callInWorld, callInWorldSliced, inPageFunction, openWorld, type World } from './isolated-world.js';
import { withinReadBound } from './read-bound.js';
import { type Clip, tileRows, withinViewport } from './screenshot-tiles.js';

const SCREENSHOT_FUNCTION = inPageFunction(SCREENSHOT_SCRIPT);

export interface ScreenshotOptions extends ScreenshotRequest {
  /** CSS px of a full-page screenshot at most (MAX_SCREENSHOT_HEIGHT). */
  maxHeight: number;
  /** The image's bytes at most (MAX_CONTENT_BYTES). */
  maxBytes: number;
}

export interface ScreenshotOutcome {
  /** Absent when the selector matched no rendered element. */
  screenshot?: Screenshot;
  /** With a selector: 1 when one was taken, 0 when none is rendered. */
  matches?: number;
  /** A full page taller than maxHeight, cut there. */
  truncated?: boolean;
}

const callScript = (world: World, request: ScreenshotPageRequest) => callInWorld(world, SCREENSHOT_FUNCTION, request);

/** The area in whole CSS px, a full page cut at the bound. */
function clipOf(area: ScreenshotArea, options: ScreenshotOptions): { clip: Clip; truncated: boolean } {
  const x = Math.max(0, Math.floor(area.x));
  const y = Math.max(0, Math.floor(area.y));
  const width = Math.max(1, Math.ceil(area.x + area.width) - x);
  const height = Math.max(1, Math.ceil(area.y + area.height) - y);
  if (!options.fullPage || options.selector !== undefined) return { clip: { x, y, width, height }, truncated: false };
  return { clip: { x, y, width, height: Math.min(height, options.maxHeight) }, truncated: height > options.maxHeight };
}

/** The clip captured (in document CSS px), as it is shown when it lies within the viewport. */
async function capture(page: Page, clip: Clip, viewport: Clip, format: string, quality: number | undefined): Promise<string> {
  const session = pageSession(page);
  if (session === undefined) throw new Error('the page has no CDP session to capture it through');
  const { data } = (await session.send('Page.captureScreenshot', {
    format: format as 'png',
    ...(quality === undefined ? {} : { quality }),
    clip: { ...clip, scale: 1 },
    captureBeyondViewport: !withinViewport(clip, viewport),
    fromSurface: true,
  })) as { data: string };
  return data;
}

/** Bytes of a base64 text (without decoding it). */
const decodedLength = (base64: string) => Math.floor((base64.length * 3) / 4) - (base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0);

/**
 * The screenshot of the page as it stands.
 * @throws ApiError content_too_large when the image exceeds maxBytes.
 */
async function takeScreenshotOnce(page: Page, options: ScreenshotOptions): Promise<ScreenshotOutcome> {
  const world = await openWorld(page.mainFrame());
  const area = (await callScript(world, {
    action: 'area',
    fullPage: options.fullPage,
    ...(options.selector === undefined ? {} : { selector: options.selector }),
  })) as ScreenshotArea | null;
  const matches = options.selector === undefined ? {} : { matches: area === null ? 0 : 1 };
  if (area === null) return matches;
  const { clip, truncated } = clipOf(area, options);
  const rows = tileRows(clip, area.scale);
  const type = mediaTypeOf(options.type);
  const width = Math.round(rows[0]!.width * area.scale);
  const height = Math.round(clip.height * area.scale);
  let data: string;
  if (rows.length === 1) {
    data = await capture(page, rows[0]!, area.viewport, options.type, options.quality);
  } else {
    // Tiles are lossless; the picture is encoded once, as asked.
    for (const row of rows) {
      const tile = await capture(page, row, area.viewport, 'png', undefined);
      const y = Math.round((row.y - clip.y) * area.scale);
      await callScript(world, { action: 'tile', data: tile, type: 'image/png', y, width, height });
    }
    const request = { action: 'encode', type, ...(options.quality === undefined ? {} : { quality: options.quality }) };
    data = (await callInWorldSliced(world, SCREENSHOT_FUNCTION, request)) as string;
  }
  if (decodedLength(data) > options.maxBytes) throw contentTooLarge(options.maxBytes);
  return { screenshot: { type, width, height, data }, ...matches, ...(truncated ? { truncated } : {}) };
}

/**
 * The screenshot of the page, taken again on the new document when the page navigates under it, and
 * given up on at the read's bound (readBoundMs), as a read is: a page that reloads itself every time
 * its dialog is dismissed never holds still, and Chromium's capture waits for a frame it never paints.
 * @throws ApiError content_too_large when the image exceeds maxBytes, target_timeout at the bound.
 */
export function takeScreenshot(
  page: Page,
  options: ScreenshotOptions,
  bound: { timers: Timers; boundMs: number },
): Promise<ScreenshotOutcome> {
  return withinReadBound(
    () => takeScreenshotOnce(page, options),
    bound,
    'The page did not hold still for its screenshot (it kept navigating, or never painted).',
  );
}
