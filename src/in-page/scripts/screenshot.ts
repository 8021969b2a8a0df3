// The in-page script of screenshots (src/browser/read/screenshot.ts): where the picture lies, and the
// gluing of its tiles when it is taken in several. It runs in an isolated world, like the reads.
import { drawTile, encodePicture } from '../compose-tiles';
import type { ScreenshotPageRequest } from '../protocol';
import { screenshotArea } from '../screenshot-area';

export function run(request: ScreenshotPageRequest): unknown {
  switch (request.action) {
    case 'area':
      return screenshotArea(request.fullPage, request.selector);
    case 'tile':
      return drawTile(request.data, request.type, request.y, request.width, request.height);
    case 'encode':
      return encodePicture(request.type, request.quality);
  }
}
