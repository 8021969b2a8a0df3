// The playground's Crawl tab: starts a crawl with POST /api/crawl, then reads the job with
// GET /api/jobs/<id>, passing each answer's next_cursor, so pages show as they are decided, with the
// job's status and counts; DELETE /api/jobs/<id> cancels it. Also switches between the page's two
// tabs. Page content is hostile input: it reaches the DOM as text only.

import { $, fillTerms, formFilled } from './dom.js';

const POLL_MS = 1000;
const FINISHED = ['completed', 'cancelled', 'failed'];
const tokenInput = /** @type {HTMLInputElement} */ ($('token'));
const progress = $('crawl-progress');
const crawlButton = /** @type {HTMLButtonElement} */ ($('crawl-button'));
const cancelButton = /** @type {HTMLButtonElement} */ ($('crawl-cancel'));

/** The job being shown: its id, and the run that polls it (a newer crawl stops the older's polling). */
let current = { id: '', run: 0 };

/** @param {'fetch' | 'crawl'} mode */
function selectMode(mode) {
  for (const name of ['fetch', 'crawl']) {
    $(`mode-${name}`).setAttribute('aria-selected', String(name === mode));
    $(`${name}-mode`).hidden = name !== mode;
  }
}

/** @param {string} path @param {string} method @param {unknown} [body] */
function call(path, method, body) {
  return fetch(path, {
    method,
    headers: { Authorization: `Bearer ${tokenInput.value}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    credentials: 'omit',
  });
}

/** Sent as typed when not a plain integer, so the API's own message names the field. @param {string} id */
function integerField(id) {
  const value = /** @type {HTMLInputElement} */ ($(id)).value.trim();
  return value === '' ? undefined : /^\d+$/.test(value) ? Number(value) : value;
}

/** The crawl's body: only the fields set, so the API's defaults apply to the rest. */
function crawlBody() {
  /** @type {Record<string, unknown>} */
  const page = { output_format: /** @type {HTMLSelectElement} */ ($('crawl-format')).value };
  if (/** @type {HTMLInputElement} */ ($('crawl-main-content')).checked) page.only_main_content = true;
  /** @type {Record<string, unknown>} */
  const body = { url: /** @type {HTMLInputElement} */ ($('crawl-url')).value.trim(), page };
  const limit = integerField('crawl-limit');
  if (limit !== undefined) body.limit = limit;
  const depth = integerField('crawl-depth');
  if (depth !== undefined) body.max_depth = depth;
  return body;
}

/** Shows the API's error answer, `details` naming each field. @param {Response} response */
async function showError(response) {
  const box = $('crawl-error');
  box.replaceChildren();
  const json = await response.json().catch(() => null);
  const error = json?.error ?? { code: 'unknown', message: `HTTP ${response.status}` };
  const title = document.createElement('strong');
  title.textContent = `${response.status} ${error.code}`;
  const message = document.createElement('p');
  message.textContent = error.message;
  box.append(title, message);
  for (const detail of error.details ?? []) {
    const line = document.createElement('p');
    line.textContent = `${detail.field}: ${detail.message}`;
    box.append(line);
  }
  box.hidden = false;
}

/** @param {{id: string, status: string, counts: Record<string, number>}} job */
function showJob(job) {
  const counts = Object.entries(job.counts).map(([state, n]) => [state, String(n)]);
  fillTerms($('crawl-summary'), [['Job', job.id], ['Status', job.status], ...counts]);
  cancelButton.disabled = FINISHED.includes(job.status);
}

/** Adds a row per page record; its content opens below it, as text. @param {Record<string, any>[]} pages */
function addPages(pages) {
  const body = /** @type {HTMLTableElement} */ ($('crawl-pages')).tBodies[0];
  for (const page of pages) {
    const row = body.insertRow();
    const cell = row.insertCell();
    const details = document.createElement('details');
    const summary = document.createElement('summary');
    summary.textContent = page.url;
    const content = document.createElement('pre');
    content.className = 'source';
    content.textContent = page.data ?? (page.error ? `${page.error.code}: ${page.error.message}` : '(no content)');
    details.append(summary, content);
    cell.append(details);
    for (const value of [page.state, page.depth, page.status ?? '—']) row.insertCell().textContent = String(value);
  }
}

/** Reads the job until it has ended and every record was read; stops when a newer crawl starts. */
async function follow(/** @type {string} */ id, /** @type {number} */ run) {
  let cursor = '';
  for (;;) {
    if (current.run !== run) return;
    const response = await call(`/api/jobs/${id}${cursor === '' ? '' : `?cursor=${encodeURIComponent(cursor)}`}`, 'GET');
    if (current.run !== run) return;
    if (!response.ok) {
      await showError(response);
      progress.textContent = 'Reading the job failed.';
      return;
    }
    const job = await response.json();
    showJob(job);
    addPages(job.pages);
    if (job.next_cursor === null) {
      progress.textContent = `Crawl ${job.status}.`;
      return;
    }
    cursor = job.next_cursor;
    progress.textContent = `Crawl ${job.status}…`;
    // Pages that filled an answer are followed at once; otherwise wait for more to be decided.
    if (job.pages.length === 0 || !FINISHED.includes(job.status)) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

async function onSubmit(/** @type {SubmitEvent} */ event) {
  event.preventDefault();
  const body = crawlBody();
  if (!formFilled({ url: body.url, urlInput: $('crawl-url'), urlPrompt: 'Enter a site URL.', token: tokenInput, progress })) return;
  crawlButton.disabled = true;
  progress.textContent = 'Starting…';
  try {
    const response = await call('/api/crawl', 'POST', body);
    $('crawl-result').hidden = false;
    $('crawl-error').hidden = true;
    /** @type {HTMLTableElement} */ ($('crawl-pages')).tBodies[0]?.replaceChildren();
    $('crawl-summary').replaceChildren();
    if (response.status !== 202) {
      await showError(response);
      cancelButton.disabled = true;
      progress.textContent = 'The crawl was not started.';
      return;
    }
    const { id } = await response.json();
    current = { id, run: current.run + 1 };
    void follow(id, current.run).catch((error) => {
      progress.textContent = `Reading the job failed: ${error instanceof Error ? error.message : String(error)}`;
    });
  } catch (error) {
    progress.textContent = `The request failed: ${error instanceof Error ? error.message : String(error)}`;
  } finally {
    crawlButton.disabled = false;
  }
}

async function onCancel() {
  if (current.id === '') return;
  cancelButton.disabled = true;
  const response = await call(`/api/jobs/${current.id}`, 'DELETE');
  if (response.ok) showJob(await response.json());
  else await showError(response);
}

$('mode-fetch').addEventListener('click', () => selectMode('fetch'));
$('mode-crawl').addEventListener('click', () => selectMode('crawl'));
$('crawl-form').addEventListener('submit', onSubmit);
cancelButton.addEventListener('click', () => void onCancel());
