// The private-network policy, whole (docs/api.md "Private-network guard"): what a request may fetch while
// ALLOW_PRIVATE_NETWORK is not "true". Three checks, one owner:
// - the request's URL, in the Worker, before any browser work;
// - every request the browser itself makes (redirects, frames, subresources), in the browser's filter;
// - the address the main document was served from (DNS rebinding), unless it came through an upstream
//   proxy, whose own address that is (a configured proxy may live on a private network);
// - the address space every other response of the page came from (a frame, script or fetch() whose
//   name resolves privately), in the browser's filter, on the same proxy terms.
// Settings cross the RPC seam as plain data; each side builds the same TargetGuard from them.
import { ApiError } from '../errors.js';
import { privateAddressReason, privateHostReason } from './addresses.js';

/** The guard's settings as plain data (they travel in the render call). */
export interface GuardSettings {
  /** ALLOW_PRIVATE_NETWORK: private, loopback and local targets let through (local dev and tests). */
  allowPrivateNetwork: boolean;
}

export interface TargetGuard {
  /** Whether the browser must check each of its requests (false when private targets are allowed). */
  readonly checksBrowserRequests: boolean;
  /**
   * Whether the address each response came from is judged (not through a proxy, which resolves names
   * itself: every response then comes from the proxy's address).
   */
  readonly checksResponseAddresses: boolean;
  /** @throws ApiError forbidden_target when the request's own URL is refused. */
  assertUrlAllowed(url: string): void;
  /** Why the browser must not send a request to `url`, or undefined when it may. */
  browserRequestRefusal(url: string): string | undefined;
  /** Why the main document may not be taken from server address `ip`, or undefined when it may. */
  documentAddressRefusal(ip: string): string | undefined;
  /**
   * The same for a response (a document, or any request of the page) whose address the browser only classed (CDP's IPAddressSpace: `Public`,
   * `Private`, `Local`, `Loopback`, `Unknown`, or undefined when it said nothing): a document read out
   * of the browser before any response event (a PDF) is never seen with its address.
   */
  documentAddressSpaceRefusal(space: string | undefined): string | undefined;
}

const BROWSER_SCHEMES = new Set(['http:', 'https:', 'ws:', 'wss:']);

function urlRefusal(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    if (!BROWSER_SCHEMES.has(parsed.protocol)) return `${parsed.protocol} scheme`;
    return privateHostReason(parsed.hostname) ?? undefined;
  } catch {
    return 'unparsable URL';
  }
}

/**
 * The 403 for a refused target, naming why (a host class or an address, never a secret); `reached`
 * when the browser was led there (a redirect, the page itself) rather than asked for it.
 */
export function forbiddenTarget(reason: string, reached = false): ApiError {
  const what = reached ? 'The target led to a host that is not allowed' : 'The target host is not allowed';
  return new ApiError('forbidden_target', `${what} (${reason}).`);
}

/** The guard for one request; `viaProxy` when its traffic goes through an upstream proxy. */
export function targetGuard(settings: GuardSettings, viaProxy = false): TargetGuard {
  const on = !settings.allowPrivateNetwork;
  return {
    checksBrowserRequests: on,
    checksResponseAddresses: on && !viaProxy,
    assertUrlAllowed(url) {
      if (!on) return;
      const reason = privateHostReason(new URL(url).hostname);
      if (reason !== null) throw forbiddenTarget(reason);
    },
    browserRequestRefusal: (url) => (on ? urlRefusal(url) : undefined),
    documentAddressRefusal(ip) {
      if (!on || viaProxy || ip === '') return undefined;
      const reason = privateAddressReason(ip.replace(/^\[|\]$/g, ''));
      return reason === null ? undefined : `${reason} ${ip}`;
    },
    documentAddressSpaceRefusal(space) {
      if (!on || viaProxy || space === 'Public') return undefined;
      return space === undefined ? 'an address the browser did not report' : `an address in the ${space.toLowerCase()} space`;
    },
  };
}
