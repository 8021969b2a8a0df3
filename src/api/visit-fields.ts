// The request fields that shape the visit (docs/api.md "Request controls"): `headers`, `cookies`,
// `device` and `viewport`, their rules and their normalized form. No message ever quotes a header's
// or a cookie's value: they carry credentials. Pure: no Hono, no Workers APIs.
import { getPublicSuffix } from 'tldts';
import { z } from 'zod';
import type { FieldIssue } from '../errors.js';
import { DEVICES, SAME_SITE_VALUES, type Visit, type VisitCookie } from '../shared/visit.js';

export const MAX_HEADERS = 30;
export const MAX_HEADER_BYTES = 16 * 1024;
export const MAX_COOKIES = 50;
export const VIEWPORT_WIDTH = { min: 200, max: 4096 } as const;
export const VIEWPORT_HEIGHT = { min: 200, max: 8192 } as const;

// RFC 9110 5.6.2: a header name is a token.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// Hop-by-hop and framing headers belong to the connection, not to the caller; Cookie has its own field.
const REFUSED_HEADERS: ReadonlySet<string> = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'upgrade',
  'te',
  'keep-alive',
  'trailer',
  'cookie',
]);
/** Whether `text` holds a control character other than tab (CR and LF end a header line; the browser refuses the others). */
function hasControl(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code < 0x20 && code !== 0x09) || code === 0x7f) return true;
  }
  return false;
}

/** Why a header is refused, or undefined when it may be sent. */
function headerProblem(lowerName: string, value: unknown): string | undefined {
  if (!TOKEN.test(lowerName)) return 'is not a valid header name (an RFC 9110 token)';
  if (REFUSED_HEADERS.has(lowerName))
    return lowerName === 'cookie' ? 'is not accepted: use cookies' : 'is not accepted: the browser sets it';
  if (lowerName.startsWith('proxy-')) return 'is not accepted: Proxy-* headers are the proxy connection’s';
  if (typeof value !== 'string') return 'must be a string';
  if (hasControl(value)) return 'must not hold CR, LF or other control characters';
  return undefined;
}

const utf8Bytes = (text: string) => new TextEncoder().encode(text).length;

/** `headers`: an object of name → string; each failing header is named in lower case (`headers.host`). */
function headersField() {
  return z
    .record(z.string(), z.unknown(), { message: 'must be an object of header names to string values' })
    .superRefine((headers, ctx) => {
      const names = Object.keys(headers);
      if (names.length > MAX_HEADERS) ctx.addIssue({ code: 'custom', message: `must hold at most ${MAX_HEADERS} headers` });
      const seen = new Set<string>();
      let bytes = 0;
      for (const name of names) {
        const lower = name.toLowerCase();
        const value = headers[name];
        const problem = seen.has(lower) ? 'is given more than once' : headerProblem(lower, value);
        seen.add(lower);
        if (problem !== undefined) ctx.addIssue({ code: 'custom', path: [lower], message: problem });
        bytes += utf8Bytes(name) + (typeof value === 'string' ? utf8Bytes(value) : 0);
      }
      if (bytes > MAX_HEADER_BYTES) ctx.addIssue({ code: 'custom', message: `must be at most ${MAX_HEADER_BYTES} bytes together` });
    })
    .nullish();
}

/** RFC 6265 4.1.1: a cookie's value holds no control characters, nor ";", nor white space at its ends. */
const isCookieValue = (value: string) => !hasControl(value) && !value.includes(';') && value.trim() === value;

function cookieItem() {
  const boolean = z.boolean({ message: 'must be a boolean' }).nullish();
  return z
    .strictObject(
      {
        name: z
          .string({ message: 'is required and must be a string' })
          .regex(TOKEN, { message: 'must be a cookie name (an RFC 9110 token)' }),
        value: z.string({ message: 'is required and must be a string' }).refine(isCookieValue, {
          message: 'must not hold control characters, ";" or white space at its ends',
        }),
        domain: z.string({ message: 'must be a string' }).nullish(),
        path: z
          .string({ message: 'must be a string' })
          .refine((path) => path.startsWith('/'), { message: 'must start with "/"' })
          .nullish(),
        secure: boolean,
        http_only: boolean,
        same_site: z.enum(SAME_SITE_VALUES, { message: 'must be one of "strict", "lax", "none"' }).nullish(),
      },
      { message: 'must be an object with name and value' },
    )
    .superRefine((cookie, ctx) => {
      // Browsers drop a SameSite=None cookie that is not Secure.
      if (cookie.same_site === 'none' && cookie.secure !== true) {
        ctx.addIssue({ code: 'custom', path: ['same_site'], message: 'may be "none" only with secure: true' });
      }
    });
}

/** The request-control members of the body schema (fetch-request.ts). */
export function visitSchemaFields() {
  return {
    headers: headersField(),
    cookies: z
      .array(cookieItem(), { message: 'must be an array of cookies' })
      .max(MAX_COOKIES, { message: `must hold at most ${MAX_COOKIES} cookies` })
      .nullish(),
    device: z.enum(DEVICES, { message: 'must be one of "desktop", "mobile"' }).nullish(),
    viewport: z
      .strictObject(
        {
          width: viewportSide(VIEWPORT_WIDTH),
          height: viewportSide(VIEWPORT_HEIGHT),
        },
        { message: 'must be an object with width and height' },
      )
      .nullish(),
  };
}

function viewportSide({ min, max }: { min: number; max: number }) {
  return z
    .number({ message: 'is required and must be an integer' })
    .int({ message: 'must be an integer' })
    .min(min, { message: `must be at least ${min}` })
    .max(max, { message: `must be at most ${max}` });
}

/** The host a cookie's domain names: lower case, without the leading dot browsers ignore. */
const cookieHost = (domain: string) => domain.replace(/^\./, '').toLowerCase();

/**
 * Why a cookie's domain cannot be the target's, or undefined: it must be the URL's host or a parent
 * domain of it below the public suffix (an IP address only itself), as a browser would accept it from
 * the target's own Set-Cookie.
 */
export function cookieDomainProblem(domain: string, url: string): string | undefined {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const wanted = cookieHost(domain);
  if (wanted === host) return undefined;
  if (wanted === '' || !host.endsWith(`.${wanted}`) || /^[\d.]+$/.test(host) || host.includes(':')) {
    return "must be the URL's host or one of its parent domains";
  }
  const suffix = getPublicSuffix(host, { allowPrivateDomains: true });
  if (suffix !== null && (wanted === suffix || suffix.endsWith(`.${wanted}`))) return 'must not be a public suffix';
  return undefined;
}

/**
 * The cookies' domains judged against the URL, for a body whose `url` and `cookies[i].domain` each
 * passed their own rules (so that every failing field is reported at once).
 */
export function cookieDomainIssues(json: object, issues: FieldIssue[]): FieldIssue[] {
  const { url, cookies } = json as { url?: unknown; cookies?: unknown };
  if (typeof url !== 'string' || issues.some((issue) => issue.field === 'url') || !Array.isArray(cookies)) return [];
  const found: FieldIssue[] = [];
  cookies.forEach((cookie: unknown, i) => {
    const domain = (cookie as { domain?: unknown } | null)?.domain;
    const field = `cookies[${i}].domain`;
    if (typeof domain !== 'string' || issues.some((issue) => issue.field === field)) return;
    const problem = cookieDomainProblem(domain, url);
    if (problem !== undefined) found.push({ field, message: problem });
  });
  return found;
}

type CookieBody = {
  name: string;
  value: string;
  domain?: string | null;
  path?: string | null;
  secure?: boolean | null;
  http_only?: boolean | null;
  same_site?: VisitCookie['sameSite'] | null;
};

export interface VisitBody {
  headers?: Record<string, unknown> | null;
  cookies?: CookieBody[] | null;
  device?: Visit['device'] | null;
  viewport?: { width: number; height: number } | null;
}

function visitCookie(cookie: CookieBody): VisitCookie {
  return {
    name: cookie.name,
    value: cookie.value,
    ...(cookie.domain == null ? {} : { domain: cookieHost(cookie.domain) }),
    ...(cookie.path == null ? {} : { path: cookie.path }),
    ...(cookie.secure == null ? {} : { secure: cookie.secure }),
    ...(cookie.http_only == null ? {} : { httpOnly: cookie.http_only }),
    ...(cookie.same_site == null ? {} : { sameSite: cookie.same_site }),
  };
}

/** The visit of a valid body: header names in lower case; an empty object or list is taken as absent. */
export function visitFrom(body: VisitBody): Visit {
  const headers = Object.entries(body.headers ?? {}).map(([name, value]) => [name.toLowerCase(), String(value)]);
  return {
    device: body.device ?? 'desktop',
    ...(body.viewport == null ? {} : { viewport: { width: body.viewport.width, height: body.viewport.height } }),
    ...(headers.length === 0 ? {} : { headers: Object.fromEntries(headers) }),
    ...(body.cookies?.length ? { cookies: body.cookies.map(visitCookie) } : {}),
  };
}

/** A visit with headers or cookies is personal: never stored, never answered from the store. */
export function isPersonal(visit: Visit): boolean {
  return visit.headers !== undefined || visit.cookies !== undefined;
}
