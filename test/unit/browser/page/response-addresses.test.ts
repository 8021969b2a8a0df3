// The address reports the request filter judges responses by (response-addresses.ts): reports and
// paused responses meet in either order, redirect hops pair up in turn, and a response never
// reported is answered undefined (refused) once its wait is over.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { collectResponseAddresses } from '../../../../src/browser/page/response-addresses.js';
import { FakeCdpSession } from '../support/fake-page.js';

const report = (session: FakeCdpSession, requestId: string, space?: string) =>
  session.emit('Network.responseReceivedExtraInfo', { requestId, headers: {}, resourceIPAddressSpace: space });

afterEach(() => {
  vi.useRealTimers();
});

describe('collectResponseAddresses', () => {
  it('answers with a report that came before the response was asked about', async () => {
    const session = new FakeCdpSession();
    const addresses = collectResponseAddresses();
    addresses.watch(session);
    report(session, 'N1', 'Loopback');
    await expect(addresses.next('N1', 1000)).resolves.toBe('Loopback');
  });

  it('waits for a report that comes after, from any session it watches', async () => {
    const page = new FakeCdpSession();
    const frame = new FakeCdpSession();
    const addresses = collectResponseAddresses();
    addresses.watch(page);
    addresses.watch(frame);
    const next = addresses.next('N2', 60_000);
    report(frame, 'N2', 'Public');
    await expect(next).resolves.toBe('Public');
  });

  it('pairs the reports of redirect hops with their responses in turn', async () => {
    const session = new FakeCdpSession();
    const addresses = collectResponseAddresses();
    addresses.watch(session);
    report(session, 'N3', 'Public');
    report(session, 'N3', 'Loopback');
    await expect(addresses.next('N3', 1000)).resolves.toBe('Public');
    await expect(addresses.next('N3', 1000)).resolves.toBe('Loopback');
  });

  it('answers undefined for a response the browser reported without a space, and for one never reported in time', async () => {
    vi.useFakeTimers();
    const session = new FakeCdpSession();
    const addresses = collectResponseAddresses();
    addresses.watch(session);
    report(session, 'N4');
    await expect(addresses.next('N4', 1000)).resolves.toBeUndefined();
    const never = addresses.next('N5', 1000);
    vi.advanceTimersByTime(1000);
    await expect(never).resolves.toBeUndefined();
    // A report after the wait is over is kept for the next response of that request, not lost to the first.
    report(session, 'N5', 'Public');
    await expect(addresses.next('N5', 1000)).resolves.toBe('Public');
  });

  it('listens once to a session watched twice, and not at all once disposed', async () => {
    const session = new FakeCdpSession();
    const addresses = collectResponseAddresses();
    addresses.watch(session);
    addresses.watch(session);
    addresses.watch(undefined);
    expect(session.listenerCount()).toBe(1);
    addresses.dispose();
    expect(session.listenerCount()).toBe(0);
  });

  it('answers a response still waiting undefined once disposed, without waiting for its timer', async () => {
    vi.useFakeTimers();
    const session = new FakeCdpSession();
    const addresses = collectResponseAddresses();
    addresses.watch(session);
    const waiting = addresses.next('N6', 60_000);
    addresses.dispose();
    await expect(waiting).resolves.toBeUndefined();
    expect(vi.getTimerCount()).toBe(0);
    // A late report meets nobody and is not kept.
    report(session, 'N6', 'Public');
    expect(session.listenerCount()).toBe(0);
  });
});
