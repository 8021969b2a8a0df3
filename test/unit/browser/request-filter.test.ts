// The request filter's answers to password challenges (request-filter.ts), driven through a fake
// page's CDP session: a proxy's challenge gets the proxy's credentials once, a target's never does.
// The same paths run end to end through a real proxy in test/e2e/proxies.test.ts.
import { describe, expect, it } from 'vitest';
import { installRequestFilter, type RequestFilterOptions } from '../../../src/browser/request-filter.js';
import { targetGuard } from '../../../src/guard/policy.js';
import { FakePage } from './support/fake-page.js';

const CREDENTIALS = { username: 'proxy-user', password: 'proxy-secret' };
const GUARD_OFF = targetGuard({ allowPrivateNetwork: true });

async function filterWith(options: Partial<RequestFilterOptions>) {
  const fake = new FakePage();
  const filter = await installRequestFilter(fake.page, { blockResources: false, guard: GUARD_OFF, ...options });
  const session = fake.openedSessions[0];
  /** Chrome asks about a challenge; the filter's answer. */
  const challenge = (requestId: string, source: 'Server' | 'Proxy') => {
    session?.emit('Fetch.authRequired', { requestId, authChallenge: { source } });
    return session?.sent.filter((s) => s.method === 'Fetch.continueWithAuth').at(-1)?.params;
  };
  return { filter, session, challenge };
}

describe('password challenges', () => {
  it("gives a proxy's first challenge of a request the proxy's credentials, and declines a second", async () => {
    const { challenge } = await filterWith({ proxyCredentials: CREDENTIALS });
    expect(challenge('R1', 'Proxy')).toEqual({
      requestId: 'R1',
      authChallengeResponse: { response: 'ProvideCredentials', ...CREDENTIALS },
    });
    expect(challenge('R1', 'Proxy')).toEqual({ requestId: 'R1', authChallengeResponse: { response: 'CancelAuth' } });
  });

  it("declines a target's challenge, even when the page has a proxy's credentials", async () => {
    const { challenge } = await filterWith({ proxyCredentials: CREDENTIALS });
    expect(challenge('R2', 'Server')).toEqual({ requestId: 'R2', authChallengeResponse: { response: 'CancelAuth' } });
  });

  it('declines every challenge when the page has no proxy credentials', async () => {
    const { challenge } = await filterWith({ guard: targetGuard({ allowPrivateNetwork: false }) });
    expect(challenge('R3', 'Proxy')).toEqual({ requestId: 'R3', authChallengeResponse: { response: 'CancelAuth' } });
    expect(challenge('R4', 'Server')).toEqual({ requestId: 'R4', authChallengeResponse: { response: 'CancelAuth' } });
  });

  it('pauses every request when a proxy has credentials, since only a paused request reports its challenge', async () => {
    const { session } = await filterWith({ proxyCredentials: CREDENTIALS });
    expect(session?.sent.find((s) => s.method === 'Fetch.enable')?.params).toEqual({
      patterns: [{ urlPattern: '*', requestStage: 'Request' }],
      handleAuthRequests: true,
    });
  });

  it('opens no session when there is nothing to filter: no blocking, no guard, no proxy credentials', async () => {
    const { filter, session } = await filterWith({});
    expect(filter).toBeUndefined();
    expect(session).toBeUndefined();
  });
});
