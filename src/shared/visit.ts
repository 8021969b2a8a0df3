// What a caller may change about the visit itself (docs/api.md "Request controls"): the browser the
// page sees (device, viewport), the cookies it starts with and the extra headers its own origin gets.
// Plain data, shared by the request schema and the browser side that applies it.

export const DEVICES = ['desktop', 'mobile'] as const;
export type Device = (typeof DEVICES)[number];

export const SAME_SITE_VALUES = ['strict', 'lax', 'none'] as const;
export type SameSite = (typeof SAME_SITE_VALUES)[number];

/** CSS pixels of the page's window. */
export interface Viewport {
  width: number;
  height: number;
}

/** A cookie set before the page loads; `domain` absent: a host-only cookie of the URL's host. */
export interface VisitCookie {
  name: string;
  value: string;
  domain?: string;
  path?: string;
  secure?: boolean;
  httpOnly?: boolean;
  sameSite?: SameSite;
}

/** The visit's controls as the browser side applies them; absent members leave the browser as it is. */
export interface Visit {
  device: Device;
  viewport?: Viewport;
  /** Extra request headers for the target's own origin, names in lower case. */
  headers?: Record<string, string>;
  cookies?: VisitCookie[];
}
