// What ends a page load early whatever phase it is in (navigate, wait or serialize), each answered at
// once rather than at a budget: the tab crashed (its renderer died, so nothing more will come), the
// main document streamed in far more than may be returned (a gzip bomb), or the page sent itself to a
// URL that failed and Chrome committed its error page (that page is never the target's content).
import type { Page } from '@cloudflare/puppeteer';
import { ApiError, contentTooLarge } from '../../errors.js';
import { urlForLog } from '../../shared/log-privacy.js';
import type { MainDocument } from './main-document.js';

export interface PageFailures {
  /** Rejects with the API error as soon as one of the failures happens; never resolves. */
  failed: Promise<never>;
  dispose(): void;
}

/**
 * Watches for the failures above; `doc` must be watching with maxDecodedBytes = `maxContentBytes`: a
 * main document whose decoded source passes the limit is refused while it streams in, since its DOM
 * serializes to about as many characters as its source (only character references and whitespace
 * inside tags shrink), and reading on only costs time: a 1 GiB gzip bomb took 31 s to refuse after
 * the fact, as the renderer slows on the growing document.
 */
export function watchPageFailures(page: Page, doc: MainDocument, maxContentBytes: number): PageFailures {
  let fail!: (error: ApiError) => void;
  const failed = new Promise<never>((_, reject) => (fail = reject));
  // Nobody may be listening when a failure comes after the load ended.
  failed.catch(() => undefined);
  const onCrash = () => fail(new ApiError('target_unreachable', 'The page crashed its browser tab (the renderer died).'));
  page.on('error', onCrash);
  void doc.oversized.then(() => fail(contentTooLarge(maxContentBytes)));
  void doc.errorPage.then(() => {
    const failure = doc.failedNavigation();
    const where = failure === undefined ? 'a URL' : urlForLog(failure.url);
    const why = failure?.errorText ?? 'net::ERR_FAILED';
    fail(new ApiError('target_unreachable', `The page navigated to ${where}, which could not be reached (${why}).`));
  });
  return { failed, dispose: () => page.off('error', onCrash) };
}
