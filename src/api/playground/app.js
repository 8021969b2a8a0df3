// Behaviour of the playground page: reads the form, calls this server's POST /api/fetch, and shows
// the result as rendered markdown, source, a sandboxed HTML preview and the screenshot, with the
// links by region, the images, the status, headers,
// Server-Timing phases and the equivalent curl command. Plain browser JS (an ES module), no build.
// The fetched content is hostile input: it only ever reaches the DOM as text, as markdown-it output
// with raw HTML disabled, or inside a sandboxed iframe that may not run scripts.
import markdownit from './markdown-it.js';
import './crawl.js';
import { $, fillTerms, formFilled } from './dom.js';

const TOKEN_KEY = 'page-fetch-playground-token';

const form = /** @type {HTMLFormElement} */ ($('fetch-form'));
const tokenInput = /** @type {HTMLInputElement} */ ($('token'));
const rememberToken = /** @type {HTMLInputElement} */ ($('remember-token'));
const fetchButton = /** @type {HTMLButtonElement} */ ($('fetch-button'));
const progress = $('progress');

// html: false escapes any HTML in the markdown instead of passing it through; markdown-it's own
// link validation already drops javascript:, vbscript: and file: URLs.
const md = markdownit({ html: false, linkify: false });
const defaultLinkOpen = md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  // Links open in a new tab so following one does not throw away the result and the typed token.
  tokens[idx].attrSet('target', '_blank');
  tokens[idx].attrSet('rel', 'noopener noreferrer');
  return defaultLinkOpen(tokens, idx, options, env, self);
};
// Images become links: loading them would tell third parties who is looking (and the CSP blocks them).
md.renderer.rules.image = (tokens, idx) => {
  const token = tokens[idx];
  const src = token.attrGet('src') ?? '';
  const alt = md.utils.escapeHtml(token.content || 'image');
  if (!md.validateLink(src)) return `[image: ${alt}]`;
  return `<a class="image-link" href="${md.utils.escapeHtml(src)}" target="_blank" rel="noopener noreferrer">[image: ${alt}]</a>`;
};

/** Keeps the token in this tab only when asked to; it is never written anywhere else. */
function restoreToken() {
  const saved = sessionStorage.getItem(TOKEN_KEY);
  if (saved !== null) {
    tokenInput.value = saved;
    rememberToken.checked = true;
  }
}

function storeToken() {
  if (rememberToken.checked) sessionStorage.setItem(TOKEN_KEY, tokenInput.value);
  else sessionStorage.removeItem(TOKEN_KEY);
}

/**
 * The CSS selectors typed into a text area, one per line (blank lines skipped).
 * @param {string} id
 */
function selectorLines(id) {
  return /** @type {HTMLTextAreaElement} */ ($(id)).value.split('\n').filter((line) => line.trim() !== '');
}

/** The request body: only the fields the person set, so the API's defaults apply to the rest. */
function requestBody() {
  /** @type {Record<string, unknown>} */
  const body = { url: /** @type {HTMLInputElement} */ ($('url')).value.trim() };
  body.output_format = /** @type {HTMLSelectElement} */ ($('output-format')).value;
  const waitEvent = /** @type {HTMLSelectElement} */ ($('wait-event')).value;
  if (waitEvent !== '') body.wait_event = waitEvent;
  const waitMs = /** @type {HTMLInputElement} */ ($('wait-ms')).value.trim();
  // Sent as typed when it is not a plain integer, so the API's own validation message is shown.
  if (waitMs !== '') body.wait_ms = /^\d+$/.test(waitMs) ? Number(waitMs) : waitMs;
  // Sent as typed (not trimmed): a selector's spaces can matter, and the API judges it.
  const waitForSelector = /** @type {HTMLInputElement} */ ($('wait-for-selector')).value;
  if (waitForSelector.trim() !== '') body.wait_for_selector = waitForSelector;
  const proxyName = /** @type {HTMLInputElement} */ ($('proxy-name')).value.trim();
  if (proxyName !== '') body.proxy_name = proxyName;
  const country = /** @type {HTMLInputElement} */ ($('country')).value.trim();
  if (country !== '') body.country = country;
  const maxAge = /** @type {HTMLInputElement} */ ($('max-age')).value.trim();
  if (maxAge !== '') body.max_age = /^\d+$/.test(maxAge) ? Number(maxAge) : maxAge;
  const includeSelectors = selectorLines('include-selectors');
  if (includeSelectors.length > 0) body.include_selectors = includeSelectors;
  const excludeSelectors = selectorLines('exclude-selectors');
  if (excludeSelectors.length > 0) body.exclude_selectors = excludeSelectors;
  if (/** @type {HTMLInputElement} */ ($('scroll')).checked) body.scroll = true;
  if (/** @type {HTMLInputElement} */ ($('keep-consent')).checked) body.consent = 'keep';
  if (/** @type {HTMLInputElement} */ ($('raw')).checked) body.raw = true;
  if (/** @type {HTMLInputElement} */ ($('only-main-content')).checked) body.only_main_content = true;
  if (/** @type {HTMLInputElement} */ ($('include-metadata')).checked) body.include_metadata = true;
  Object.assign(body, visitFields());
  if (/** @type {HTMLInputElement} */ ($('include-links')).checked) body.include_links = true;
  if (/** @type {HTMLInputElement} */ ($('include-images')).checked) body.include_images = true;
  const screenshot = screenshotField();
  if (screenshot !== undefined) body.screenshot = screenshot;
  return body;
}

/** The screenshot asked for: true for the viewport as PNG, else the keys set; undefined for none. */
function screenshotField() {
  const kind = /** @type {HTMLSelectElement} */ ($('screenshot')).value;
  const selector = /** @type {HTMLInputElement} */ ($('screenshot-selector')).value;
  const type = /** @type {HTMLSelectElement} */ ($('screenshot-type')).value;
  if (kind === '' && selector.trim() === '') return undefined;
  /** @type {Record<string, string | boolean>} */
  const options = {};
  if (kind === 'full_page') options.full_page = true;
  if (selector.trim() !== '') options.selector = selector;
  if (type !== 'png') options.type = type;
  return Object.keys(options).length === 0 ? true : options;
}

/**
 * The request controls the person set (docs/api.md "Request controls"): device, viewport, headers
 * (`Name: value` per line) and cookies (`name=value` per line). A viewport side that is not a plain
 * integer is sent as typed, so the API's own validation message is shown.
 */
function visitFields() {
  /** @type {Record<string, unknown>} */
  const fields = {};
  const device = /** @type {HTMLSelectElement} */ ($('device')).value;
  if (device !== '') fields.device = device;
  const side = (/** @type {string} */ id) => {
    const value = /** @type {HTMLInputElement} */ ($(id)).value.trim();
    return value === '' ? undefined : /^\d+$/.test(value) ? Number(value) : value;
  };
  const width = side('viewport-width');
  const height = side('viewport-height');
  if (width !== undefined || height !== undefined) fields.viewport = { width, height };
  const headers = Object.fromEntries(pairLines('request-headers', ':'));
  if (Object.keys(headers).length > 0) fields.headers = headers;
  const cookies = pairLines('request-cookies', '=').map(([name, value]) => ({ name, value }));
  if (cookies.length > 0) fields.cookies = cookies;
  return fields;
}

/**
 * The non-empty lines of a textarea split at the first `separator`, both sides trimmed.
 * @param {string} id
 * @param {string} separator
 * @returns {[string, string][]}
 */
function pairLines(id, separator) {
  return selectorLines(id).map((line) => {
    const at = line.indexOf(separator);
    return at < 0 ? [line.trim(), ''] : [line.slice(0, at).trim(), line.slice(at + 1).trim()];
  });
}

/**
 * X-Cache with the stored render's age on a hit.
 * @param {Response} response
 */
/** What was read, and for a PDF how many of its pages were converted. */
function documentSummary(response) {
  const kind = response.headers.get('X-Document-Kind') ?? '';
  const pages = response.headers.get('X-Pdf-Pages');
  return pages === null ? kind : `${kind}, pages ${pages}`;
}

function cacheSummary(response) {
  const cache = response.headers.get('X-Cache') ?? '';
  return cache === 'HIT' ? `HIT, ${response.headers.get('Age') ?? '?'} s old` : cache;
}

/** @param {string} value */
const shellQuote = (value) => `'${value.replaceAll("'", `'\\''`)}'`;

/**
 * The same request for a terminal. The token is a shell variable, never the typed one: the command
 * is meant to be copied into notes, tickets and chats.
 * @param {Record<string, unknown>} body
 */
function curlCommand(body) {
  return [
    `curl -s ${shellQuote(`${location.origin}/api/fetch`)}`,
    `  -H "Authorization: Bearer $PAGE_FETCH_TOKEN"`,
    `  -H 'Content-Type: application/json'`,
    `  -d ${shellQuote(JSON.stringify(body))}`,
  ].join(' \\\n');
}

/**
 * `acquire;dur=12.5, navigate;dur=30` → [['acquire', 12.5], ['navigate', 30]].
 * @param {string | null} header
 * @returns {[string, number][]}
 */
function serverTimings(header) {
  if (header === null) return [];
  /** @type {[string, number][]} */
  const phases = [];
  for (const entry of header.split(',')) {
    const [name, ...params] = entry.trim().split(';');
    const dur = params.map((p) => p.trim()).find((p) => p.startsWith('dur='));
    if (name && dur !== undefined) phases.push([name, Number(dur.slice(4))]);
  }
  return phases;
}

/**
 * @param {HTMLElement} table
 * @param {Iterable<[string, string]>} rows
 */
function fillHeaders(table, rows) {
  const body = /** @type {HTMLTableSectionElement} */ (table.querySelector('tbody'));
  body.replaceChildren();
  for (const [name, value] of rows) {
    const row = body.insertRow();
    const key = document.createElement('th');
    key.scope = 'row';
    key.textContent = name;
    row.append(key);
    row.insertCell().textContent = value;
  }
  if (body.rows.length === 0) body.insertRow().insertCell().textContent = 'none';
}

/** @param {[string, number][]} phases */
function fillTimings(phases) {
  const body = /** @type {HTMLTableSectionElement} */ ($('timings').querySelector('tbody'));
  body.replaceChildren();
  const total = phases.reduce((sum, [, ms]) => sum + ms, 0) || 1;
  for (const [name, ms] of phases) {
    const row = body.insertRow();
    row.insertCell().textContent = name;
    row.insertCell().textContent = ms.toFixed(1);
    const meter = document.createElement('meter');
    meter.min = 0;
    meter.max = total;
    meter.value = ms;
    meter.textContent = `${Math.round((ms / total) * 100)}%`;
    row.insertCell().append(meter);
  }
  if (phases.length === 0) body.insertRow().insertCell().textContent = 'none';
}

/** @param {[string, string][]} items */
function fillSummary(items) {
  fillTerms($('summary'), items);
}

/** @param {'rendered' | 'preview' | 'source' | 'screenshot'} name */
function selectView(name) {
  for (const view of ['rendered', 'preview', 'source', 'screenshot']) {
    const selected = view === name;
    $(`tab-${view}`).setAttribute('aria-selected', String(selected));
    $(`view-${view}`).hidden = !selected;
  }
}

/**
 * Shows one content in the views that fit its format: markdown is rendered, HTML is previewed.
 * @param {string} content
 * @param {string} format
 */
function showContent(content, format) {
  const isMarkdown = format === 'markdown';
  $('tab-rendered').hidden = !isMarkdown;
  $('tab-preview').hidden = isMarkdown;
  $('view-rendered').innerHTML = isMarkdown ? md.render(content) : '';
  // The frame is sandboxed without allow-scripts (see index.html); the meta CSP also stops it from
  // loading anything, so the preview sends no request to the target or to this server.
  const frame = /** @type {HTMLIFrameElement} */ ($('preview-frame'));
  frame.srcdoc = isMarkdown ? '' : `<!DOCTYPE html><meta http-equiv="Content-Security-Policy" content="default-src 'none'">${content}`;
  $('source-code').textContent = content;
  selectView(isMarkdown ? 'rendered' : 'preview');
}

/** The object URL of the screenshot shown, let go when the next one comes. */
let screenshotUrl = '';

/**
 * The JSON answer's screenshot as an image to show.
 * @param {{ type: string, width: number, height: number, data: string }} shot
 */
function screenshotOf(shot) {
  const bytes = Uint8Array.from(atob(shot.data), (c) => c.charCodeAt(0));
  const label = `${shot.type}, ${shot.width} × ${shot.height} px, ${Math.round(bytes.length / 1024)} KiB`;
  return { blob: new Blob([bytes], { type: shot.type }), label };
}

/**
 * Shows the screenshot in its own view (a blob: URL of the image's bytes), or hides the view.
 * @param {{ blob: Blob, label: string } | null} shot
 */
function showScreenshot(shot) {
  if (screenshotUrl !== '') URL.revokeObjectURL(screenshotUrl);
  screenshotUrl = '';
  $('tab-screenshot').hidden = shot === null;
  const image = /** @type {HTMLImageElement} */ ($('screenshot-image'));
  image.removeAttribute('src');
  if (shot === null) return;
  screenshotUrl = URL.createObjectURL(shot.blob);
  image.src = screenshotUrl;
  $('screenshot-size').textContent = shot.label;
}

const REGIONS = ['main', 'navigation', 'header', 'footer', 'aside', 'other'];

/**
 * The links grouped by region, a table each; a URL is a link only when it is http(s).
 * @param {{ url: string, text: string, region: string, internal: boolean }[] | null} links
 */
function showLinks(links) {
  $('links-panel').hidden = links === null;
  const box = $('links');
  box.replaceChildren();
  if (links === null) return;
  for (const region of REGIONS) {
    const inRegion = links.filter((link) => link.region === region);
    if (inRegion.length === 0) continue;
    const heading = document.createElement('h4');
    heading.className = 'links-region';
    heading.textContent = `${region} (${inRegion.length})`;
    const table = document.createElement('table');
    table.className = 'headers';
    const body = table.createTBody();
    for (const link of inRegion) {
      const row = body.insertRow();
      row.insertCell().textContent = link.text || '(no text)';
      const anchor = document.createElement('a');
      anchor.textContent = link.url;
      if (/^https?:/i.test(link.url)) anchor.href = link.url;
      anchor.target = '_blank';
      anchor.rel = 'noopener noreferrer';
      row.insertCell().append(anchor);
      row.insertCell().textContent = link.internal ? 'internal' : 'external';
    }
    box.append(heading, table);
  }
  if (links.length === 0) box.textContent = 'none';
}

/** @param {{ url: string, alt: string, width: number, height: number, region: string }[] | null} images */
function showImages(images) {
  $('images-panel').hidden = images === null;
  const body = /** @type {HTMLTableSectionElement} */ ($('images').querySelector('tbody'));
  body.replaceChildren();
  for (const image of images ?? []) {
    const row = body.insertRow();
    row.insertCell().textContent = image.url;
    row.insertCell().textContent = image.alt;
    row.insertCell().textContent = `${image.width} × ${image.height}`;
    row.insertCell().textContent = image.region;
  }
}

/**
 * @param {{ code?: string, message?: string, details?: { field: string, message: string }[] }} error
 * @param {number} status
 */
function showError(error, status) {
  const box = $('error');
  box.replaceChildren();
  const title = document.createElement('strong');
  title.textContent = `${status} ${error.code ?? 'error'}`;
  const message = document.createElement('p');
  message.textContent = error.message ?? '';
  box.append(title, message);
  if (Array.isArray(error.details) && error.details.length > 0) {
    const list = document.createElement('ul');
    for (const detail of error.details) {
      const item = document.createElement('li');
      const field = document.createElement('code');
      field.textContent = detail.field;
      item.append(field, ` ${detail.message}`);
      list.append(item);
    }
    box.append(list);
  }
  box.hidden = false;
}

/** @param {Response} response */
async function readResult(response, /** @type {Record<string, unknown>} */ body) {
  const format = String(body.output_format);
  const contentType = response.headers.get('Content-Type') ?? '';
  const pageStatus = response.headers.get('X-Page-Status');
  // raw: true with a screenshot answers with the image alone (nothing when its selector matched nothing).
  if (response.ok && body.raw === true && body.screenshot !== undefined) {
    const blob = await response.blob();
    const screenshot = blob.size === 0 ? null : { blob, label: `${contentType}, ${Math.round(blob.size / 1024)} KiB` };
    const content = screenshot === null ? '(no element matched: no image)' : '(the image alone: see the Screenshot view)';
    return {
      content,
      pageStatus,
      pageHeaders: null,
      metadata: null,
      blocked: response.headers.get('X-Page-Blocked'),
      format: 'text',
      links: null,
      images: null,
      screenshot,
    };
  }
  const text = await response.text();
  // raw: true answers with the content itself; then the page's status is only in X-Page-Status.
  if (response.ok && body.raw === true) {
    return {
      content: text,
      pageStatus,
      pageHeaders: null,
      metadata: null,
      blocked: response.headers.get('X-Page-Blocked'),
      format,
      links: null,
      images: null,
      screenshot: null,
    };
  }
  /** @type {any} */
  let json = null;
  if (contentType.startsWith('application/json')) {
    try {
      json = JSON.parse(text);
    } catch {
      // Shown below as an unexpected answer.
    }
  }
  if (!response.ok || json === null || typeof json.data !== 'string') {
    return { error: json?.error ?? { code: 'unexpected_response', message: text.slice(0, 500) } };
  }
  return {
    content: json.data,
    pageStatus: String(json.status),
    pageHeaders: Object.entries(json.headers ?? {}),
    // Each field a string or null; null is shown as such.
    metadata: json.metadata ? Object.entries(json.metadata).map(([name, value]) => [name, value === null ? 'null' : String(value)]) : null,
    // A bot wall in front of the page: its vendor and kind (docs/api.md "Blocked pages").
    blocked: json.blocked ? `${json.blocked.vendor} (${json.blocked.kind})` : null,
    format,
    links: Array.isArray(json.links) ? json.links : null,
    images: Array.isArray(json.images) ? json.images : null,
    screenshot: json.screenshot ? screenshotOf(json.screenshot) : null,
  };
}

async function onSubmit(/** @type {SubmitEvent} */ event) {
  event.preventDefault();
  storeToken();
  const body = requestBody();
  if (!formFilled({ url: body.url, urlInput: $('url'), urlPrompt: 'Enter a URL.', token: tokenInput, progress })) return;
  fetchButton.disabled = true;
  progress.textContent = 'Fetching…';
  const started = performance.now();
  try {
    const response = await fetch('/api/fetch', {
      method: 'POST',
      headers: { Authorization: `Bearer ${tokenInput.value}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      // Our own origin only; no cookies are involved.
      credentials: 'omit',
    });
    const result = await readResult(response, body);
    const elapsed = `${Math.round(performance.now() - started)} ms`;
    $('result').hidden = false;
    $('error').hidden = true;
    fillHeaders($('response-headers'), response.headers.entries());
    fillTimings(serverTimings(response.headers.get('Server-Timing')));
    $('curl').textContent = curlCommand(body);
    if ('error' in result) {
      showError(result.error, response.status);
      fillSummary([
        ['API status', String(response.status)],
        ['Time', elapsed],
      ]);
      fillHeaders($('page-headers'), []);
      $('metadata-panel').hidden = true;
      showLinks(null);
      showImages(null);
      showScreenshot(null);
      $('content').hidden = true;
    } else {
      fillSummary([
        ['API status', String(response.status)],
        ['Page status', result.pageStatus ?? 'unknown'],
        ...(result.blocked ? [['Blocked', `${result.blocked}: a bot wall, not the page`]] : []),
        ['Final URL', response.headers.get('X-Final-Url') ?? ''],
        ['Wait result', response.headers.get('X-Wait-Result') ?? ''],
        ['Document', documentSummary(response)],
        ...(body.only_main_content ? [['Content mode', response.headers.get('X-Content-Mode') ?? '']] : []),
        ['Cache', cacheSummary(response)],
        ['Time', elapsed],
      ]);
      fillHeaders($('page-headers'), result.pageHeaders ?? [['(raw response)', 'not included with raw: true']]);
      $('metadata-panel').hidden = result.metadata === null;
      fillHeaders($('metadata'), result.metadata ?? []);
      showContent(result.content, result.format);
      showLinks(result.links);
      showImages(result.images);
      showScreenshot(result.screenshot);
      $('content').hidden = false;
    }
    progress.textContent = `Done in ${elapsed}.`;
  } catch (error) {
    progress.textContent = `The request failed: ${error instanceof Error ? error.message : String(error)}`;
  } finally {
    fetchButton.disabled = false;
  }
}

for (const view of /** @type {const} */ (['rendered', 'preview', 'source', 'screenshot'])) {
  $(`tab-${view}`).addEventListener('click', () => selectView(view));
}
// Arrow keys move between the visible tabs, as the ARIA tabs pattern expects.
$('content')
  .querySelector('[role=tablist]')
  ?.addEventListener('keydown', (event) => {
    const key = /** @type {KeyboardEvent} */ (event).key;
    if (key !== 'ArrowLeft' && key !== 'ArrowRight') return;
    const tabs = [...$('content').querySelectorAll('[role=tab]')].filter((tab) => !(/** @type {HTMLElement} */ (tab).hidden));
    const current = tabs.findIndex((tab) => tab.getAttribute('aria-selected') === 'true');
    const next = /** @type {HTMLElement} */ (tabs[(current + (key === 'ArrowRight' ? 1 : tabs.length - 1)) % tabs.length]);
    next.click();
    next.focus();
  });
$('copy-curl').addEventListener('click', () => {
  void navigator.clipboard?.writeText($('curl').textContent ?? '');
});
rememberToken.addEventListener('change', storeToken);
form.addEventListener('submit', onSubmit);
// The example fills the URL field with a PDF; the output format and options stay as chosen.
$('example-pdf').addEventListener('click', (event) => {
  /** @type {HTMLInputElement} */ ($('url')).value = /** @type {HTMLElement} */ (event.currentTarget).dataset.url ?? '';
});
restoreToken();
