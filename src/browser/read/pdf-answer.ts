// Answers a request whose target is a PDF (docs/api.md "Documents (PDF)"): the body held in the browser
// (held-document.ts) is read out of it, at most MAX_PDF_BYTES, within the navigation bound, then
// converted here in the Durable Object (src/pdf) to the form the caller asked for. Status, headers
// and final URL are the PDF response's, as for any page.
import { ApiError } from '../../errors.js';
import { forbiddenTarget, type TargetGuard } from '../../guard/policy.js';
import { NO_METADATA } from '../../shared/metadata.js';
import { convertPdf, PdfRefused } from '../../pdf/index.js';
import type { PhaseTimer } from '../../shared/timings.js';
import type { HeldDocument } from '../page/held-document.js';
import type { MainDocument } from '../page/main-document.js';
import type { LoadOptions, RenderedPage } from '../render-call.js';
import type { Timers } from '../timers.js';

/** How long after a held response its address class may still be reported (its raw headers' event). */
const ADDRESS_REPORT_GRACE_MS = 1000;

const MIB = 1024 * 1024;

function pdfTooLarge(maxPdfBytes: number): ApiError {
  const size = maxPdfBytes % MIB === 0 ? `${maxPdfBytes / MIB} MiB` : `${maxPdfBytes} bytes`;
  return new ApiError('content_too_large', `The PDF is larger than ${size}.`);
}

/**
 * With the private-network guard on, a PDF is taken only from an address the browser classed public
 * (its raw headers say which; a held response never reaches the event that names the address).
 */
export async function refuseForbiddenPdfAddress(held: HeldDocument, doc: MainDocument, guard: TargetGuard, timers: Timers): Promise<void> {
  // A guard that lets any address through needs no report (guard off, or through an upstream proxy).
  if (guard.documentAddressSpaceRefusal(undefined) === undefined) return;
  const space = await Promise.race([doc.addressSpace, timers.after(ADDRESS_REPORT_GRACE_MS, undefined)]);
  const refusal = guard.documentAddressSpaceRefusal(space);
  if (refusal === undefined) return;
  held.cancel();
  throw forbiddenTarget(refusal, true);
}

/** Reads and converts the held PDF; `deadline` bounds the read (the navigation's bound). */
export async function pdfAnswer(
  held: HeldDocument,
  options: LoadOptions,
  watchers: { timers: Timers; timer: PhaseTimer; deadline: number },
): Promise<RenderedPage> {
  const { timers, timer } = watchers;
  const body = await timer.time('wait', () => timers.within(watchers.deadline, held.read(options.maxPdfBytes)));
  if (body === 'timeout') {
    held.cancel();
    throw new ApiError('target_timeout', `The PDF did not arrive within ${options.navigationTimeoutMs} ms.`);
  }
  if (body.kind === 'too-large') throw pdfTooLarge(options.maxPdfBytes);
  if (body.kind === 'not-pdf') throw new ApiError('unsupported_content', body.reason);
  const pdf = await timer.time('serialize', async () => {
    try {
      return await convertPdf(body.bytes, { maxPages: options.maxPdfPages });
    } catch (error) {
      if (error instanceof PdfRefused) throw new ApiError('unsupported_content', error.message);
      throw error;
    }
  });
  return {
    content: options.format === 'markdown' ? pdf.markdown : pdf.html,
    form: options.format,
    ...(options.metadata ? { metadata: { ...NO_METADATA, ...pdf.metadata } } : {}),
    // The whole text of a PDF is its main content.
    ...(options.mainContent ? { contentMode: 'main' as const } : {}),
    finalUrl: held.url,
    status: held.status,
    headers: held.headers,
    waitResult: 'event',
    documentKind: 'pdf',
    pdfPages: pdf.pages,
  };
}
