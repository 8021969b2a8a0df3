// The tiles a screenshot crosses CDP in (docs/api.md "Large pages"): each within 4 MiB on the wire
// at worst and within Chromium's texture bound, together the whole clip, none repeated.
import { describe, expect, it } from 'vitest';
import { MAX_TILE_PIXELS, MAX_TILE_SIDE, tileRows, withinViewport } from '../../../../src/browser/read/screenshot-tiles.js';
import { REPLY_SLICE_BYTES } from '../../../../src/browser/read/isolated-world.js';

describe('tileRows', () => {
  it('keeps a tile of raw RGBA pixels, base64, within the 4 MiB slice', () => {
    expect(((MAX_TILE_PIXELS * 4.1 * 4) / 3) | 0).toBeLessThan(REPLY_SLICE_BYTES);
  });

  it.each([
    [800, 600, 1],
    [800, 30_000, 1],
    [1280, 32_768, 2],
    [300, 120, 3],
    [20_000, 5_000, 1],
  ])('cuts a %i × %i CSS px clip (scale %i) into rows that cover it once, each within the bounds', (width, height, scale) => {
    const clip = { x: 3, y: 7, width, height };
    const rows = tileRows(clip, scale);
    let top = clip.y;
    for (const row of rows) {
      expect(row.y).toBe(top);
      expect(row.x).toBe(clip.x);
      const deviceWidth = Math.ceil(row.width * scale);
      const deviceHeight = Math.ceil(row.height * scale);
      expect(deviceWidth * deviceHeight).toBeLessThanOrEqual(MAX_TILE_PIXELS);
      expect(Math.max(deviceWidth, deviceHeight)).toBeLessThanOrEqual(MAX_TILE_SIDE);
      top += row.height;
    }
    expect(top).toBe(clip.y + height);
  });

  it('takes a viewport of 800 × 600 in one tile', () => {
    expect(tileRows({ x: 0, y: 0, width: 800, height: 600 }, 1)).toHaveLength(1);
  });
});

describe('withinViewport', () => {
  const viewport = { x: 0, y: 1000, width: 785, height: 600 };

  it('takes the viewport itself and a box inside it as within', () => {
    expect(withinViewport(viewport, viewport)).toBe(true);
    expect(withinViewport({ x: 10, y: 1200, width: 100, height: 50 }, viewport)).toBe(true);
  });

  it.each([
    ['above', { x: 0, y: 999, width: 785, height: 600 }],
    ['below', { x: 0, y: 1001, width: 785, height: 600 }],
    ['wider', { x: 0, y: 1000, width: 800, height: 600 }],
    ['a whole page', { x: 0, y: 0, width: 785, height: 30_000 }],
  ])('takes a clip reaching %s the viewport as beyond it', (_name, clip) => {
    expect(withinViewport(clip, viewport)).toBe(false);
  });
});
