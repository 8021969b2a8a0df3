import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NETWORK_QUIET_MS, type NetworkTracker, trackNetwork } from '../../../../src/browser/page/network-tracker.js';
import { FakeFrame, FakePage, TARGET_URL } from '../support/fake-page.js';
import { at, track, useFakeClock } from '../support/settle.js';

let fake: FakePage;
let network: NetworkTracker;

useFakeClock();

beforeEach(() => {
  fake = new FakePage();
  network = trackNetwork(fake.page);
});

afterEach(() => {
  network.dispose();
});

describe('trackNetwork', () => {
  it('resolves idle(0) NETWORK_QUIET_MS after DOMContentLoaded when nothing is in flight', async () => {
    const idle = track(network.idle(0));
    await at(1000);
    fake.fireDomContentLoaded();
    await at(5000);
    expect(idle.current).toMatchObject({ state: 'resolved', at: 1000 + NETWORK_QUIET_MS });
  });

  it('does not resolve idle(0) before DOMContentLoaded, however quiet the network', async () => {
    const idle = track(network.idle(0));
    await at(60_000);
    expect(idle.current.state).toBe('pending');
  });

  it('resolves idle(0) NETWORK_QUIET_MS after the last request ends', async () => {
    const idle = track(network.idle(0));
    const script = fake.startSubresource();
    fake.fireDomContentLoaded();
    await at(1200);
    fake.finishRequest(script);
    await at(5000);
    expect(idle.current).toMatchObject({ state: 'resolved', at: 1200 + NETWORK_QUIET_MS });
  });

  it('counts a failed request as ended', async () => {
    const idle = track(network.idle(0));
    const script = fake.startSubresource();
    fake.fireDomContentLoaded();
    await at(1200);
    fake.failRequest(script);
    await at(5000);
    expect(idle.current).toMatchObject({ state: 'resolved', at: 1200 + NETWORK_QUIET_MS });
  });

  it('resolves idle(2) with two requests still in flight', async () => {
    const idle = track(network.idle(2));
    fake.startSubresource();
    fake.startSubresource();
    await at(1000);
    fake.fireDomContentLoaded();
    await at(5000);
    expect(idle.current).toMatchObject({ state: 'resolved', at: 1000 + NETWORK_QUIET_MS });
  });

  it('holds idle(2) while three requests are in flight', async () => {
    const idle = track(network.idle(2));
    const first = fake.startSubresource();
    fake.startSubresource();
    fake.startSubresource();
    fake.fireDomContentLoaded();
    await at(2000);
    fake.finishRequest(first);
    await at(5000);
    expect(idle.current).toMatchObject({ state: 'resolved', at: 2000 + NETWORK_QUIET_MS });
  });

  it('restarts the quiet period when a request starts during it', async () => {
    const idle = track(network.idle(0));
    await at(1000);
    fake.fireDomContentLoaded();
    await at(1300);
    const late = fake.startSubresource();
    await at(1400);
    fake.finishRequest(late);
    await at(5000);
    expect(idle.current).toMatchObject({ state: 'resolved', at: 1400 + NETWORK_QUIET_MS });
  });

  it("forgets the old document's requests when the top frame commits a new document", async () => {
    const idle = track(network.idle(0));
    fake.startSubresource('https://example.com/never-ends');
    fake.fireDomContentLoaded();
    await at(2000);
    fake.commitFrame('https://example.com/next');
    fake.fireDomContentLoaded();
    await at(5000);
    expect(idle.current).toMatchObject({ state: 'resolved', at: 2000 + NETWORK_QUIET_MS });
  });

  it("waits for the new document's DOMContentLoaded after the top frame commits it", async () => {
    const idle = track(network.idle(0));
    await at(1000);
    fake.fireDomContentLoaded();
    await at(1200);
    fake.commitFrame('https://example.com/next');
    await at(3000);
    fake.fireDomContentLoaded();
    await at(5000);
    expect(idle.current).toMatchObject({ state: 'resolved', at: 3000 + NETWORK_QUIET_MS });
  });

  it("keeps counting the new document's own navigation request across its commit", async () => {
    const idle = track(network.idle(0));
    const navigation = fake.startRequest('https://example.com/next');
    fake.commitFrame('https://example.com/next');
    fake.fireDomContentLoaded();
    await at(2500);
    fake.finishRequest(navigation);
    await at(5000);
    expect(idle.current).toMatchObject({ state: 'resolved', at: 2500 + NETWORK_QUIET_MS });
  });

  it('does not start over when a child frame commits a document', async () => {
    const idle = track(network.idle(0));
    const script = fake.startSubresource();
    fake.fireDomContentLoaded();
    await at(1000);
    fake.commitFrame('https://ads.example/frame', new FakeFrame('CHILD', fake.main));
    await at(2000);
    fake.finishRequest(script);
    await at(60_000);
    expect(idle.current).toMatchObject({ state: 'resolved', at: 2000 + NETWORK_QUIET_MS });
  });

  it("forgets the requests of a frame taken out of the page, whose end Chrome may never report, and no other's", async () => {
    const idle = track(network.idle(0));
    const frame = new FakeFrame('CONSENT', fake.main);
    const choice = fake.startRequest('https://consent.example/record', { navigation: false, frame, resourceType: 'fetch' });
    const script = fake.startSubresource();
    fake.fireDomContentLoaded();
    await at(1000);
    fake.detachFrame(frame);
    await at(2000);
    expect(idle.current.state).toBe('pending');
    fake.finishRequest(script);
    await at(60_000);
    expect(idle.current).toMatchObject({ state: 'resolved', at: 2000 + NETWORK_QUIET_MS });
    expect(choice.frame()).toBe(frame);
  });

  it('clears its quiet timers on dispose', async () => {
    void network.idle(0);
    fake.fireDomContentLoaded();
    network.dispose();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('removes its listeners on dispose', () => {
    network.dispose();
    expect(fake.listeners()).toBe(0);
  });

  it('is quiet for a page that only ever loaded its main document', async () => {
    const idle = track(network.idle(0));
    const { request } = fake.commitDocument({ url: TARGET_URL });
    fake.fireDomContentLoaded();
    await at(800);
    fake.finishRequest(request);
    await at(5000);
    expect(idle.current).toMatchObject({ state: 'resolved', at: 800 + NETWORK_QUIET_MS });
  });

  it.each(['websocket', 'eventsource', 'media', 'ping'])('never counts a %s request as open', async (resourceType) => {
    const idle = track(network.idle(0));
    fake.startSubresource(`${TARGET_URL}stream`, resourceType);
    await at(1000);
    fake.fireDomContentLoaded();
    await at(5000);
    expect(idle.current).toMatchObject({ state: 'resolved', at: 1000 + NETWORK_QUIET_MS });
  });

  it('stops counting a fetch once its answer turns out to be an event stream', async () => {
    const idle = track(network.idle(0));
    const feed = fake.startSubresource(`${TARGET_URL}feed`, 'fetch');
    fake.fireDomContentLoaded();
    await at(1200);
    fake.respond(feed, { headers: { 'content-type': 'text/event-stream; charset=utf-8' } });
    await at(5000);
    expect(idle.current).toMatchObject({ state: 'resolved', at: 1200 + NETWORK_QUIET_MS });
  });

  it('keeps counting a fetch whose answer is not a stream until its body ends (a long-poll)', async () => {
    const idle = track(network.idle(0));
    const poll = fake.startSubresource(`${TARGET_URL}poll`, 'xhr');
    fake.fireDomContentLoaded();
    await at(1200);
    fake.respond(poll, { headers: { 'content-type': 'application/json' } });
    await at(3000);
    expect(idle.current.state).toBe('pending');
    fake.finishRequest(poll);
    await at(5000);
    expect(idle.current).toMatchObject({ state: 'resolved', at: 3000 + NETWORK_QUIET_MS });
  });

  it('waits for the quiet spell it is asked for', async () => {
    const idle = track(network.idle(0, 150));
    await at(1000);
    fake.fireDomContentLoaded();
    await at(5000);
    expect(idle.current).toMatchObject({ state: 'resolved', at: 1150 });
  });
});
