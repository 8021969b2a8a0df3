// screenshot (docs/api.md "Links, images and screenshots") against the real Worker, Browser Rendering
// emulation and Chromium: the viewport, a 30,000 px page of coloured bands taken whole (every band
// the right colour, decoded here), element boxes, the formats by their magic bytes, the raw answer,
// the MCP image block and the bad input.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { decodePng } from '../support/png.js';
import { useWorker } from '../support/e2e-hooks.js';
import { BAND_COLOURS } from '../support/views-routes.js';
import { TEST_TOKEN } from '../support/worker.js';

const ctx = useWorker();

interface Shot {
  type: string;
  width: number;
  height: number;
  data: string;
}
interface Answer {
  data: string;
  screenshot?: Shot;
  error?: { code: string; details?: { field: string; message: string }[] };
}

async function fetchJson(path: string, body: object): Promise<{ response: Response; json: Answer }> {
  const response = await ctx.worker.fetchPage({ url: ctx.fixtures.url(path), wait_event: 'load', ...body });
  return { response, json: (await response.json()) as Answer };
}

const bytesOf = (shot: Shot) => new Uint8Array(Buffer.from(shot.data, 'base64'));
const MAGIC = {
  png: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  jpeg: [0xff, 0xd8, 0xff],
  webp: [0x52, 0x49, 0x46, 0x46],
};
const startsWith = (bytes: Uint8Array, magic: number[]) => magic.every((byte, i) => bytes[i] === byte);

describe('screenshot of the viewport', () => {
  it('adds a PNG of the viewport to the JSON answer, the page content as without it', async () => {
    const { response, json } = await fetchJson('/views/boxes', { screenshot: true });
    expect(response.status).toBe(200);
    const shot = json.screenshot!;
    expect(shot.type).toBe('image/png');
    const png = decodePng(bytesOf(shot));
    expect([png.width, png.height]).toEqual([shot.width, shot.height]);
    expect(shot.width).toBeGreaterThanOrEqual(200);
    // The first box (300 × 120 CSS px at y 200) in its colour; the page's white above it.
    expect(png.rgb(10, 250)).toEqual([0, 128, 255]);
    expect(png.rgb(10, 100)).toEqual([255, 255, 255]);
    const plain = await fetchJson('/views/boxes', {});
    expect(json.data).toBe(plain.json.data);
    expect(plain.json).not.toHaveProperty('screenshot');
    expect(response.headers.get('Server-Timing')).toMatch(/screenshot;dur=/);
  });

  it.each(['png', 'jpeg', 'webp'] as const)('is a %s by its magic bytes when asked', async (type) => {
    const { json } = await fetchJson('/views/boxes', { screenshot: { type, ...(type === 'png' ? {} : { quality: 80 }) } });
    expect(json.screenshot?.type).toBe(`image/${type}`);
    expect(startsWith(bytesOf(json.screenshot!), MAGIC[type])).toBe(true);
  });

  it('answers the image alone with raw, the page status in X-Page-Status', async () => {
    const response = await ctx.worker.fetchPage({ url: ctx.fixtures.url('/views/boxes'), wait_event: 'load', raw: true, screenshot: true });
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('image/png');
    expect(response.headers.get('X-Page-Status')).toBe('200');
    expect(startsWith(new Uint8Array(await response.arrayBuffer()), MAGIC.png)).toBe(true);
  });
});

describe('the README picture', () => {
  // With UPDATE_SCREENSHOTS=1 the service's own screenshot of a fixture article becomes
  // docs/screenshot-example.png, the picture the README shows (not on every run: it is committed).
  it('is a viewport PNG of an article, taken by the service', async () => {
    const { json } = await fetchJson('/pages/main-article.html', { screenshot: true });
    const bytes = bytesOf(json.screenshot!);
    expect(startsWith(bytes, MAGIC.png)).toBe(true);
    if (process.env.UPDATE_SCREENSHOTS === '1') {
      writeFileSync(fileURLToPath(new URL('../../../docs/screenshot-example.png', import.meta.url)), bytes);
    }
  });
});

describe('screenshot of an element', () => {
  it.each([
    ['#first', 300, 120],
    ['.box:nth-of-type(3)', 500, 80],
    ['.inner', 222, 111],
  ])('takes the whole box of the first rendered match of %s', async (selector, width, height) => {
    const { response, json } = await fetchJson('/views/boxes', { screenshot: { selector } });
    expect(response.headers.get('X-Screenshot-Matches')).toBe('1');
    expect([json.screenshot?.width, json.screenshot?.height]).toEqual([width, height]);
    const png = decodePng(bytesOf(json.screenshot!));
    expect(png.rgb(width >> 1, height >> 1)).toEqual(selector === '.inner' ? [255, 0, 0] : [0, 128, 255]);
  });

  it('answers no screenshot and X-Screenshot-Matches: 0 when nothing matching is rendered', async () => {
    const { response, json } = await fetchJson('/views/boxes', { screenshot: { selector: '#gone' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('X-Screenshot-Matches')).toBe('0');
    expect(json).not.toHaveProperty('screenshot');
    const raw = await ctx.worker.fetchPage({ url: ctx.fixtures.url('/views/boxes'), raw: true, screenshot: { selector: '#gone' } });
    expect(raw.status).toBe(200);
    expect((await raw.arrayBuffer()).byteLength).toBe(0);
  });
});

describe('screenshot of the full page', () => {
  it('takes a 30,000 px page whole, every band its colour', async () => {
    const { response, json } = await fetchJson('/views/bands', { screenshot: { full_page: true } });
    expect(response.status).toBe(200);
    expect(response.headers.get('X-Screenshot-Truncated')).toBeNull();
    const png = decodePng(bytesOf(json.screenshot!));
    expect(png.height).toBe(30_000);
    expect(json.screenshot?.height).toBe(30_000);
    BAND_COLOURS.forEach((colour, band) => {
      // The top, middle and bottom rows of each 5,000 px band.
      for (const y of [band * 5000 + 1, band * 5000 + 2500, band * 5000 + 4998]) {
        for (const x of [0, png.width >> 1, png.width - 1]) expect(png.rgb(x, y), `band ${band} at ${x},${y}`).toEqual(colour);
      }
    });
  });

  it('cuts a taller page at MAX_SCREENSHOT_HEIGHT and says so', async () => {
    const { response, json } = await fetchJson('/views/bands?repeat=2', { screenshot: { full_page: true } });
    expect(response.headers.get('X-Screenshot-Truncated')).toBe('true');
    const png = decodePng(bytesOf(json.screenshot!));
    expect(png.height).toBe(32_768);
    // Bands 7 (index 6, red again) holds row 32,000; the last row is its colour too.
    expect(png.rgb(0, 32_767)).toEqual(BAND_COLOURS[0]);
  });
});

describe('the cache and MCP', () => {
  it('answers the screenshot as stored on a HIT, and keys each kind of screenshot apart', async () => {
    const body = { screenshot: { selector: '#first' }, max_age: 600 };
    const first = await fetchJson('/views/boxes?cache=1', body);
    const second = await fetchJson('/views/boxes?cache=1', body);
    expect(second.response.headers.get('X-Cache')).toBe('HIT');
    expect(second.response.headers.get('X-Screenshot-Matches')).toBe('1');
    expect(second.json.screenshot).toEqual(first.json.screenshot);
    const other = await fetchJson('/views/boxes?cache=1', { screenshot: { selector: '.inner' }, max_age: 600 });
    expect(other.response.headers.get('X-Cache')).toBe('MISS');
  });

  it('returns the screenshot as an MCP image content block beside the text', async () => {
    const client = new Client({ name: 'page-fetch-e2e', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${ctx.worker.origin}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${TEST_TOKEN}` } },
      }),
    );
    try {
      const result = (await client.callTool({
        name: 'fetch_page',
        arguments: { url: ctx.fixtures.url('/views/boxes'), screenshot: { selector: '#first' } },
      })) as CallToolResult;
      expect(result.isError).toBeFalsy();
      expect(result.content.map((item) => item.type)).toEqual(['text', 'image']);
      const image = result.content[1] as { data: string; mimeType: string };
      expect(image.mimeType).toBe('image/png');
      expect(decodePng(new Uint8Array(Buffer.from(image.data, 'base64'))).width).toBe(300);
    } finally {
      await client.close();
    }
  });
});

describe('bad input', () => {
  it.each([
    [{ quality: 50 }, 'screenshot.quality'],
    [{ type: 'png', quality: 50 }, 'screenshot.quality'],
    [{ fullpage: true }, 'screenshot.fullpage'],
    [{ selector: '!!' }, 'screenshot.selector'],
    [{ type: 'gif' }, 'screenshot.type'],
    [{ type: 'jpeg', quality: 101 }, 'screenshot.quality'],
    ['yes', 'screenshot'],
  ])('%j is 400 naming %s', async (screenshot, field) => {
    const { response, json } = await fetchJson('/views/boxes', { screenshot });
    expect(response.status).toBe(400);
    expect(json.error?.code).toBe('invalid_request');
    expect(json.error?.details?.map((detail) => detail.field)).toEqual([field]);
  });
});
