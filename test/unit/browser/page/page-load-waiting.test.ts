import { describe, expect, it } from 'vitest';
import { NETWORK_QUIET_MS } from '../../../../src/browser/page/network-tracker.js';
import { BODY_GRACE_MS } from '../../../../src/browser/page/page-load.js';
import { load, outcome } from '../support/load-harness.js';
import { at, useFakeClock } from '../support/settle.js';

// loadPage from the commit to serialization: the wait event, the budget (waitMs) and the body's grace.
useFakeClock();

describe('loadPage: waiting', () => {
  it('takes the page when the wait event fires within the budget', async () => {
    const { fake, result } = load();
    await at(100);
    fake.commitDocument();
    await at(1200);
    fake.fireDomContentLoaded();
    await at(10_000);
    expect(outcome(result)).toEqual({ waitResult: 'event', at: 1200 });
  });

  it('takes the page at waitMs when the wait event has not fired by then', async () => {
    const { fake, result } = load({ waitEvent: 'load' });
    await at(100);
    fake.commitDocument();
    fake.finishRequest();
    fake.fireDomContentLoaded();
    await at(10_000);
    expect(outcome(result)).toEqual({ waitResult: 'timeout', at: 5000 });
  });

  it('waits for DOMContentLoaded when asked for DOMContentLoaded', async () => {
    const { fake, result } = load({ waitEvent: 'DOMContentLoaded' });
    await at(100);
    fake.commitDocument();
    await at(1000);
    fake.fireDomContentLoaded();
    await at(2000);
    fake.fireLoad();
    await at(10_000);
    expect(outcome(result)).toEqual({ waitResult: 'event', at: 1000 });
  });

  it('waits for load when asked for load', async () => {
    const { fake, result } = load({ waitEvent: 'load' });
    await at(100);
    fake.commitDocument();
    await at(1000);
    fake.fireDomContentLoaded();
    await at(2000);
    fake.fireLoad();
    await at(10_000);
    expect(outcome(result)).toEqual({ waitResult: 'event', at: 2000 });
  });

  it('waits for at most two requests in flight for 500 ms when asked for networkAlmostIdle', async () => {
    const { fake, result } = load({ waitEvent: 'networkAlmostIdle' });
    await at(100);
    fake.commitDocument();
    fake.finishRequest();
    const first = fake.startSubresource();
    fake.startSubresource();
    fake.startSubresource();
    await at(1000);
    fake.fireDomContentLoaded();
    await at(1500);
    fake.finishRequest(first);
    await at(10_000);
    expect(outcome(result)).toEqual({ waitResult: 'event', at: 1500 + NETWORK_QUIET_MS });
  });

  it('waits for no request in flight for 500 ms when asked for networkIdle', async () => {
    const { fake, result } = load({ waitEvent: 'networkIdle' });
    await at(100);
    fake.commitDocument();
    fake.finishRequest();
    const script = fake.startSubresource();
    await at(1000);
    fake.fireDomContentLoaded();
    await at(1500);
    fake.finishRequest(script);
    await at(10_000);
    expect(outcome(result)).toEqual({ waitResult: 'event', at: 1500 + NETWORK_QUIET_MS });
  });

  it('gives a document that answered after the budget BODY_GRACE_MS for its body', async () => {
    const { fake, result } = load({ waitEvent: 'load' });
    await at(6000);
    fake.commitDocument();
    await at(10_000);
    expect(outcome(result)).toEqual({ waitResult: 'timeout', at: 6000 + BODY_GRACE_MS });
  });

  it("ends a late document's grace at its DOMContentLoaded", async () => {
    const { fake, result } = load({ waitEvent: 'load' });
    await at(6000);
    fake.commitDocument();
    await at(6300);
    fake.fireDomContentLoaded();
    await at(10_000);
    expect(outcome(result)).toEqual({ waitResult: 'timeout', at: 6300 });
  });

  it("ends a late document's grace when its body ends", async () => {
    const { fake, result } = load({ waitEvent: 'load' });
    await at(6000);
    fake.commitDocument();
    await at(6400);
    fake.finishRequest();
    await at(10_000);
    expect(outcome(result)).toEqual({ waitResult: 'timeout', at: 6400 });
  });

  it('gives a document that answered shortly before the budget ended the rest of BODY_GRACE_MS', async () => {
    const { fake, result } = load({ waitEvent: 'load' });
    await at(4600);
    fake.commitDocument();
    await at(10_000);
    expect(outcome(result)).toEqual({ waitResult: 'timeout', at: 4600 + BODY_GRACE_MS });
  });

  it('takes a document whose body never completes at the budget, not the navigation timeout', async () => {
    const { fake, result } = load({ waitEvent: 'load' });
    await at(100);
    fake.commitDocument();
    await at(40_000);
    expect(outcome(result)).toEqual({ waitResult: 'timeout', at: 5000 });
  });
});
