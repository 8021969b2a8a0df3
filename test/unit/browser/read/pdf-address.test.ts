// refuseForbiddenPdfAddress (pdf-answer.ts): with the private-network guard on, a held PDF is taken
// only once the browser has classed its address public; a report that names another space, or none
// within a second, is 403 forbidden_target and the held navigation is cancelled. With the guard off,
// or through an upstream proxy, nothing is waited for.
import { describe, expect, it } from 'vitest';
import type { HeldDocument } from '../../../../src/browser/page/held-document.js';
import type { MainDocument } from '../../../../src/browser/page/main-document.js';
import { refuseForbiddenPdfAddress } from '../../../../src/browser/read/pdf-answer.js';
import { Timers } from '../../../../src/browser/timers.js';
import { ApiError } from '../../../../src/errors.js';
import { targetGuard } from '../../../../src/guard/policy.js';
import { at, track, useFakeClock } from '../support/settle.js';

useFakeClock();

const GUARD_ON = targetGuard({ allowPrivateNetwork: false });

/** A held PDF whose cancellations are counted, and a main document whose address space is reported at `reportAt` (never when undefined). */
function heldWithReport(space: string, reportAt?: number) {
  const held = { cancelled: 0 };
  const heldDocument: HeldDocument = {
    url: 'https://example.com/a.pdf',
    status: 200,
    headers: {},
    read: () => new Promise<never>(() => undefined),
    cancel: () => void held.cancelled++,
  };
  const addressSpace = new Promise<string | undefined>((resolve) => {
    if (reportAt !== undefined) setTimeout(() => resolve(space), reportAt);
  });
  const doc = { addressSpace } as unknown as MainDocument;
  return { held, heldDocument, doc };
}

describe('refuseForbiddenPdfAddress', () => {
  it('refuses a PDF whose address the browser has not reported within a second, and cancels it', async () => {
    const { held, heldDocument, doc } = heldWithReport('Public');
    const outcome = track(refuseForbiddenPdfAddress(heldDocument, doc, GUARD_ON, new Timers()));
    await at(999);
    expect(outcome.current.state).toBe('pending');
    await at(1000);
    expect(outcome.current).toMatchObject({ state: 'rejected', at: 1000 });
    const error = (outcome.current as { error: ApiError }).error;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.code).toBe('forbidden_target');
    expect(error.status).toBe(403);
    expect(error.message).toBe('The target led to a host that is not allowed (an address the browser did not report).');
    expect(held.cancelled).toBe(1);
  });

  it('takes a PDF as soon as its address is reported public', async () => {
    const { held, heldDocument, doc } = heldWithReport('Public', 200);
    const outcome = track(refuseForbiddenPdfAddress(heldDocument, doc, GUARD_ON, new Timers()));
    await at(2000);
    expect(outcome.current).toEqual({ state: 'resolved', value: undefined, at: 200 });
    expect(held.cancelled).toBe(0);
  });

  it('refuses a PDF reported in the private space when the report comes, and cancels it', async () => {
    const { held, heldDocument, doc } = heldWithReport('Private', 300);
    const outcome = track(refuseForbiddenPdfAddress(heldDocument, doc, GUARD_ON, new Timers()));
    await at(2000);
    expect(outcome.current).toMatchObject({ state: 'rejected', at: 300 });
    expect((outcome.current as { error: ApiError }).error.message).toBe(
      'The target led to a host that is not allowed (an address in the private space).',
    );
    expect(held.cancelled).toBe(1);
  });

  it.each([
    ['the guard off', targetGuard({ allowPrivateNetwork: true })],
    ['an upstream proxy', targetGuard({ allowPrivateNetwork: false }, true)],
  ])('waits for no report with %s', async (_name, guard) => {
    const { held, heldDocument, doc } = heldWithReport('Private');
    const outcome = track(refuseForbiddenPdfAddress(heldDocument, doc, guard, new Timers()));
    await at(0);
    expect(outcome.current).toEqual({ state: 'resolved', value: undefined, at: 0 });
    expect(held.cancelled).toBe(0);
  });
});
