// The tiles a screenshot crosses CDP in (docs/views.md "Screenshots: tiles and stitching"): rows of
// the picture, each small enough for 4 MiB on the wire whatever it shows and within Chromium's
// texture bound. Pure arithmetic, no browser.
import { REPLY_SLICE_BYTES } from './isolated-world.js';

/** Chromium's texture bound, in device px: a capture taller (or wider) than this is not drawn whole. */
export const MAX_TILE_SIDE = 16384;
/**
 * Device pixels of one tile at most: an image's bytes are at worst its raw RGBA and a little (a PNG of
 * noise; JPEG and WebP at quality 100 stay below), written in base64 (4/3) on the wire, within
 * REPLY_SLICE_BYTES with room for the reply around it.
 */
const WORST_BYTES_PER_PIXEL = 4.1;
export const MAX_TILE_PIXELS = Math.floor(((REPLY_SLICE_BYTES - 64 * 1024) * 3) / 4 / WORST_BYTES_PER_PIXEL);

/** An area of the page in CSS px. */
export interface Clip {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Rows of the clip, in CSS px, each within MAX_TILE_PIXELS and MAX_TILE_SIDE device px. The width
 * is the clip's up to the texture bound (a page wider than that is cut at its right).
 */
export function tileRows(clip: Clip, scale: number): Clip[] {
  const width = Math.min(clip.width, Math.floor(MAX_TILE_SIDE / scale));
  const deviceWidth = Math.ceil(width * scale);
  const rowDevice = Math.min(MAX_TILE_SIDE, Math.floor(MAX_TILE_PIXELS / deviceWidth));
  const rowHeight = Math.max(1, Math.floor(rowDevice / scale));
  const rows: Clip[] = [];
  for (let top = 0; top < clip.height; top += rowHeight) {
    rows.push({ x: clip.x, y: clip.y + top, width, height: Math.min(rowHeight, clip.height - top) });
  }
  return rows;
}

/**
 * Whether the clip lies within the viewport, both in CSS px: such a picture is captured as the page
 * is shown. One beyond it needs `captureBeyondViewport`, which lays the page out again at the
 * capture's size and back, and takes about twice as long for a viewport's worth.
 */
export const withinViewport = (clip: Clip, viewport: Clip) =>
  clip.x >= viewport.x &&
  clip.y >= viewport.y &&
  clip.x + clip.width <= viewport.x + viewport.width &&
  clip.y + clip.height <= viewport.y + viewport.height;
