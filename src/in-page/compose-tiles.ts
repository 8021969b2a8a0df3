// Glues screenshot tiles into one picture in the browser (docs/views.md "Stitching"): each tile is
// decoded by the browser's own image decoder, drawn at its place on one canvas, and the canvas is
// encoded by the browser's own encoder (PNG, JPEG or WebP). No image code of ours beyond the gluing.

import { base64Bytes } from '../shared/bytes';

const TILES_GLOBAL = 'pageFetchScreenshotTiles';

interface KeptTile {
  bitmap: ImageBitmap;
  y: number;
}

function kept(): KeptTile[] {
  const world = globalThis as Record<string, unknown>;
  world[TILES_GLOBAL] ??= [];
  return world[TILES_GLOBAL] as KeptTile[];
}

function base64Of(bytes: Uint8Array): string {
  let text = '';
  // In chunks: one call with a whole image's bytes as arguments would overflow the stack.
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

/** Keeps a tile, decoded, until `composeTiles`. */
export async function keepTile(data: string, type: string, y: number): Promise<true> {
  const bitmap = await createImageBitmap(new Blob([base64Bytes(data)], { type }));
  kept().push({ bitmap, y });
  return true;
}

/** The tiles kept, drawn on one canvas and encoded; the tiles are let go. */
export async function composeTiles(width: number, height: number, type: string, quality: number | undefined): Promise<string> {
  const tiles = kept();
  (globalThis as Record<string, unknown>)[TILES_GLOBAL] = undefined;
  const canvas = new OffscreenCanvas(width, height);
  const context = canvas.getContext('2d');
  if (context === null) throw new Error('the browser gave no 2D canvas to compose the screenshot on');
  for (const tile of tiles) {
    context.drawImage(tile.bitmap, 0, tile.y);
    tile.bitmap.close();
  }
  const blob = await canvas.convertToBlob({ type, ...(quality === undefined ? {} : { quality: quality / 100 }) });
  return base64Of(new Uint8Array(await blob.arrayBuffer()));
}
