// Glues screenshot tiles into one picture in the browser (docs/views.md "Screenshots: tiles and
// stitching"): each tile is decoded by the browser's own image decoder and drawn at its place on one
// canvas as it arrives (so only one tile is held decoded at a time), and the canvas is encoded by the
// browser's own encoder (PNG, JPEG or WebP). No image code of ours beyond the gluing.
import { base64Bytes } from '../shared/bytes';

const CANVAS_GLOBAL = 'pageFetchScreenshotCanvas';

function base64Of(bytes: Uint8Array): string {
  let text = '';
  // In chunks: one call with a whole image's bytes as arguments would overflow the stack.
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

const world = globalThis as Record<string, unknown>;

/** Draws a tile at `y` device px on the picture's canvas, made `width` × `height` with the first tile. */
export async function drawTile(data: string, type: string, y: number, width: number, height: number): Promise<true> {
  world[CANVAS_GLOBAL] ??= new OffscreenCanvas(width, height);
  const context = (world[CANVAS_GLOBAL] as OffscreenCanvas).getContext('2d');
  if (context === null) throw new Error('the browser gave no 2D canvas to compose the screenshot on');
  const bitmap = await createImageBitmap(new Blob([base64Bytes(data)], { type }));
  context.drawImage(bitmap, 0, y);
  bitmap.close();
  return true;
}

/** The picture drawn so far, encoded; the canvas is let go. */
export async function encodePicture(type: string, quality: number | undefined): Promise<string> {
  const canvas = world[CANVAS_GLOBAL] as OffscreenCanvas | undefined;
  world[CANVAS_GLOBAL] = undefined;
  if (canvas === undefined) throw new Error('no screenshot tiles were drawn');
  const blob = await canvas.convertToBlob({ type, ...(quality === undefined ? {} : { quality: quality / 100 }) });
  return base64Of(new Uint8Array(await blob.arrayBuffer()));
}
