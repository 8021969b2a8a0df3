// Upstream proxies (docs/api.md "Proxies and country") through a real forward proxy with Basic auth:
// the fetch goes through the named proxy, the country reaches it in the username, concurrent
// requests through different proxies do not cross, and failures are 502 proxy_error that never
// show a password.
import { afterAll, describe, expect, it } from 'vitest';
import { closedPort } from '../support/fixture-server.js';
import { useWorker } from '../support/e2e-hooks.js';
import { REPORT } from '../support/pdf-routes.js';
import { startTestProxy, type TestProxy } from '../support/proxy-server.js';

const RESI_PASSWORD = 'resi-secret-pw-7781';
const DC_PASSWORD = 'dc-secret-pw-9902';
const proxies: Record<string, TestProxy> = {};

const ctx = useWorker(async (fixtures) => {
  const port = Number(new URL(fixtures.origin).port);
  proxies.resi = await startTestProxy(port, (user, pass) => user === 'resi-user' && pass === RESI_PASSWORD);
  proxies.dc = await startTestProxy(port, (user, pass) => user.startsWith('acct') && pass === DC_PASSWORD);
  const config = {
    resi: { kind: 'residential', server: proxies.resi.server, username: 'resi-user', password: RESI_PASSWORD },
    dc: {
      kind: 'datacenter',
      server: proxies.dc.server,
      username: 'acct',
      password: DC_PASSWORD,
      country_username: '{username}-country-{country}',
    },
    wrong_pw: { kind: 'isp', server: proxies.resi.server, username: 'resi-user', password: 'not-the-password' },
    dead: { kind: 'mobile', server: `http://127.0.0.1:${await closedPort()}` },
  };
  return { vars: { PROXIES: JSON.stringify(config), ALLOW_PRIVATE_NETWORK: 'false' } };
});

afterAll(async () => {
  for (const proxy of Object.values(proxies)) await proxy.close();
  // No proxy credential in any log line of the Worker.
  for (const secret of [RESI_PASSWORD, DC_PASSWORD, 'not-the-password']) expect(ctx.worker.logs()).not.toContain(secret);
});

/** A URL only the test proxies can resolve (to the fixture server). */
const viaProxy = (path: string) => `http://fixtures.test:${new URL(ctx.fixtures.origin).port}${path}`;

async function fetchJson(body: object) {
  const response = await ctx.worker.fetchPage(body);
  const text = await response.text();
  return { response, text, json: JSON.parse(text) as { data?: string; status?: number; error?: { code: string; message: string } } };
}

/** The fixture was asked for `path`, and never with credentials. */
function expectNoCredentialsAt(path: string): void {
  const authorizations = ctx.fixtures.requests.filter((r) => r.path === path).map((r) => r.headers.authorization);
  expect(authorizations.length).toBeGreaterThan(0);
  expect(authorizations).toEqual(authorizations.map(() => undefined));
}

describe('upstream proxies', () => {
  it('fetches through the named proxy with its credentials', async () => {
    const { response, json } = await fetchJson({ url: viaProxy('/show-cookie?via=resi'), wait_event: 'load', proxy_name: 'resi' });
    expect(response.status).toBe(200);
    expect(json.data).toContain('(no cookie)');
    const seen = proxies.resi!.requests.filter((r) => r.path === '/show-cookie?via=resi');
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.at(-1)!.username).toBe('resi-user');
    // The fixture saw the proxy: the request arrived with the proxy's Via header.
    const atFixture = ctx.fixtures.requests.filter((r) => r.path === '/show-cookie?via=resi');
    expect(atFixture.at(-1)?.headers.via).toMatch(/proxy\//);
  });

  it('converts a PDF fetched through the proxy: its bytes come through the browser, so through the proxy', async () => {
    const response = await ctx.worker.fetchPage({
      url: viaProxy('/pdf/report.pdf?via=resi'),
      output_format: 'markdown',
      proxy_name: 'resi',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('X-Document-Kind')).toBe('pdf');
    expect(((await response.json()) as { data: string }).data.startsWith(`# ${REPORT.title}\n\n`)).toBe(true);
    expect(proxies.resi!.requests.filter((r) => r.path === '/pdf/report.pdf?via=resi').length).toBeGreaterThan(0);
  });

  it("never answers a target's password challenge with the proxy's credentials, and returns the target's 401 page", async () => {
    const { response, json } = await fetchJson({ url: viaProxy('/basic-auth?id=through-proxy'), wait_event: 'load', proxy_name: 'resi' });
    expect(response.status).toBe(200);
    expect(json.status).toBe(401);
    expect(json.data).toContain('Sign in required');
    expectNoCredentialsAt('/basic-auth?id=through-proxy');
  });

  it("never answers a password challenge of a target's frame with the proxy's credentials", async () => {
    const { response, json } = await fetchJson({
      url: viaProxy('/basic-auth-in-frame?id=frame-through-proxy'),
      wait_event: 'load',
      proxy_name: 'resi',
      output_format: 'markdown',
    });
    expect(response.status).toBe(200);
    expect(json.data).toContain('Sign in required');
    expectNoCredentialsAt('/basic-auth?id=frame-through-proxy');
  });

  it('passes the country to a datacenter proxy through its username template', async () => {
    const { response } = await fetchJson({ url: viaProxy('/echo?id=country'), wait_event: 'load', proxy_name: 'dc', country: 'FR' });
    expect(response.status).toBe(200);
    const seen = proxies.dc!.requests.filter((r) => r.path === '/echo?id=country');
    expect(seen.at(-1)?.username).toBe('acct-country-fr');
  });

  it('keeps two concurrent requests through different proxies apart', async () => {
    const [a, b] = await Promise.all([
      fetchJson({ url: viaProxy('/echo?id=through-resi&ms=300'), wait_event: 'load', proxy_name: 'resi' }),
      fetchJson({ url: viaProxy('/echo?id=through-dc&ms=300'), wait_event: 'load', proxy_name: 'dc' }),
    ]);
    expect(a.json.data).toContain('request-through-resi');
    expect(b.json.data).toContain('request-through-dc');
    expect(proxies.resi!.requests.some((r) => r.path.includes('through-dc'))).toBe(false);
    expect(proxies.dc!.requests.some((r) => r.path.includes('through-resi'))).toBe(false);
  });

  it('does not use a proxy for requests that name none', async () => {
    const before = proxies.resi!.requests.length + proxies.dc!.requests.length;
    const { response, json } = await fetchJson({ url: viaProxy('/echo?id=direct'), wait_event: 'load' });
    // Without the proxy the .test name does not resolve at all.
    expect(response.status).toBe(502);
    expect(json.error?.code).toBe('target_unreachable');
    expect(proxies.resi!.requests.length + proxies.dc!.requests.length).toBe(before);
  });

  it('answers 502 proxy_error naming the proxy when it rejects the credentials, without the password', async () => {
    const { response, json, text } = await fetchJson({ url: viaProxy('/echo?id=bad-creds'), wait_event: 'load', proxy_name: 'wrong_pw' });
    expect(response.status).toBe(502);
    expect(json.error?.code).toBe('proxy_error');
    expect(json.error?.message).toContain('"wrong_pw"');
    expect(text).not.toContain('not-the-password');
  });

  it('answers 502 proxy_error when the proxy refuses the connection', async () => {
    const { response, json } = await fetchJson({ url: viaProxy('/echo?id=dead'), wait_event: 'load', proxy_name: 'dead' });
    expect(response.status).toBe(502);
    expect(json.error?.code).toBe('proxy_error');
    expect(json.error?.message).toContain('"dead"');
  });

  it('answers 502 proxy_error when the proxy drops the connection mid-request', async () => {
    const { response, json } = await fetchJson({ url: viaProxy('/proxy-drops'), wait_event: 'load', proxy_name: 'resi' });
    expect(response.status).toBe(502);
    expect(json.error?.code).toBe('proxy_error');
    // The next request through the same proxy is served normally.
    const next = await fetchJson({ url: viaProxy('/echo?id=after-drop'), wait_event: 'load', proxy_name: 'resi' });
    expect(next.json.data).toContain('request-after-drop');
  });

  it('still applies the private-network guard to the target behind an allowed loopback proxy', async () => {
    const { response, json } = await fetchJson({ url: ctx.fixtures.url('/echo?id=private'), proxy_name: 'resi' });
    expect(response.status).toBe(403);
    expect(json.error?.code).toBe('forbidden_target');
  });

  it('answers 400 listing the configured names for an unknown proxy', async () => {
    const { response, json } = await fetchJson({ url: viaProxy('/'), proxy_name: 'nope' });
    expect(response.status).toBe(400);
    expect(JSON.stringify(json)).toContain('fast_dc, resi, dc, wrong_pw, dead');
  });
});
