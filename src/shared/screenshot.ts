// The screenshot a request asks for (docs/api.md "Links, images and screenshots"), as both sides of
// the binding see it: the Worker validates it, the Durable Object takes it.

export const SCREENSHOT_TYPES = ['png', 'jpeg', 'webp'] as const;
export type ScreenshotType = (typeof SCREENSHOT_TYPES)[number];

export interface ScreenshotRequest {
  /** The whole scrollable page (up to MAX_SCREENSHOT_HEIGHT), not the viewport. */
  fullPage: boolean;
  /** The first rendered element matching this CSS selector, its whole box. */
  selector?: string;
  type: ScreenshotType;
  /** 1–100, jpeg and webp only. */
  quality?: number;
}

/** A screenshot taken: the image's own pixels (CSS px × the device pixel ratio), base64. */
export interface Screenshot {
  type: `image/${ScreenshotType}`;
  width: number;
  height: number;
  data: string;
}

export const mediaTypeOf = (type: ScreenshotType): Screenshot['type'] => `image/${type}`;
