// The private-network guard inside the browser (ALLOW_PRIVATE_NETWORK "false"): a public-looking name
// that resolves to loopback (Chromium's --host-resolver-rules stands in for DNS), redirects, frames
// and subresources aimed at loopback, and navigations to other schemes. Pages that must look public
// are loaded by a `.test` name through a loopback proxy, which the guard allows as the configured
// proxy's own address while still judging every target.
import { afterAll, describe, expect, it } from 'vitest';
import { useWorker } from '../support/e2e-hooks.js';
import { startTestProxy, type TestProxy } from '../support/proxy-server.js';

let proxy: TestProxy | undefined;
const ctx = useWorker(async (fixtures) => {
  proxy = await startTestProxy(Number(new URL(fixtures.origin).port));
  return {
    vars: { ALLOW_PRIVATE_NETWORK: 'false', PROXIES: JSON.stringify({ public_net: { kind: 'isp', server: proxy.server } }) },
    chromiumFlags: ['--host-resolver-rules=MAP *.rebind.example 127.0.0.1'],
  };
});

afterAll(async () => {
  await proxy?.close();
});

const port = () => new URL(ctx.fixtures.origin).port;
const publicUrl = (path: string) => `http://site.test:${port()}${path}`;
const secretRequests = () => ctx.fixtures.requests.filter((request) => request.path.startsWith('/secret'));

async function fetchJson(body: object) {
  const response = await ctx.worker.fetchPage(body);
  return { response, json: (await response.json()) as { data?: string; error?: { code: string; message: string } } };
}

describe('private-network guard in the browser', () => {
  it('answers 403 when a public-looking name resolves to a loopback address', async () => {
    const { response, json } = await fetchJson({ url: `http://www.rebind.example:${port()}/pages/article.html`, wait_event: 'load' });
    expect(response.status).toBe(403);
    expect(json.error?.code).toBe('forbidden_target');
    expect(json.error?.message).toContain('127.0.0.1');
  });

  it('answers 403 when a public-looking name serving a PDF resolves to a loopback address, before reading it', async () => {
    const before = ctx.fixtures.requests.filter((request) => request.path === '/pdf/report.pdf?rebind').length;
    const { response, json } = await fetchJson({ url: `http://www.rebind.example:${port()}/pdf/report.pdf?rebind`, wait_event: 'load' });
    expect(response.status).toBe(403);
    expect(json.error).toEqual({
      code: 'forbidden_target',
      message: 'The target led to a host that is not allowed (an address in the loopback space).',
    });
    // The browser asked (its name looked public), and nothing of the PDF came back.
    expect(ctx.fixtures.requests.filter((request) => request.path === '/pdf/report.pdf?rebind').length).toBe(before + 1);
  });

  it('answers 403 when the target redirects to a loopback address', async () => {
    const target = encodeURIComponent(`http://127.0.0.1:${port()}/secret-after-redirect`);
    const { response, json } = await fetchJson({
      url: publicUrl(`/redirect-to?url=${target}`),
      wait_event: 'load',
      proxy_name: 'public_net',
    });
    expect(response.status).toBe(403);
    expect(json.error?.code).toBe('forbidden_target');
    expect(secretRequests()).toEqual([]);
  });

  it('blocks frames and subresources aimed at loopback, and still returns the page', async () => {
    const { response, json } = await fetchJson({
      url: publicUrl('/guard/subresources'),
      wait_event: 'networkIdle',
      wait_ms: 5000,
      proxy_name: 'public_net',
    });
    expect(response.status).toBe(200);
    expect(json.data).toContain('Public page');
    expect(json.data).toContain('nothing leaked');
    expect(secretRequests()).toEqual([]);
  });

  it('keeps the page from navigating itself or a frame to file:, chrome: or view-source:', async () => {
    const { response, json } = await fetchJson({
      url: publicUrl('/guard/schemes'),
      wait_event: 'networkIdle',
      wait_ms: 3000,
      proxy_name: 'public_net',
    });
    expect(response.status).toBe(200);
    expect(json.data).toContain('Scheme page');
    expect(json.data).not.toMatch(/root:x:0:0|Chromium|User Agent/);
    expect(response.headers.get('X-Final-Url')).toBe(publicUrl('/guard/schemes'));
  });

  it('fetches a public-looking page normally', async () => {
    const { response, json } = await fetchJson({ url: publicUrl('/pages/article.html'), wait_event: 'load', proxy_name: 'public_net' });
    expect(response.status).toBe(200);
    expect(json.data).toContain('An article');
  });
});
