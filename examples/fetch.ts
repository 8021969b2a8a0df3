// Page Fetch from TypeScript with the built-in fetch: renders the page given as the first argument
// and prints its markdown (its title, from the page's metadata, goes to stderr). PAGE_FETCH_URL (default http://127.0.0.1:8787) is the service,
// PAGE_FETCH_TOKEN (default local-dev-token) the bearer token. Run: npx tsx examples/fetch.ts URL [SELECTOR]
// (with a CSS selector, the page is taken once an element matching it is rendered: wait_for_selector).
// PAGE_FETCH_DEVICE=mobile asks for the page a phone gets (device).
// The request and response shapes are in GET /openapi.json.

// Makes the file a module wherever it is copied, so the top-level awaits below compile.
export {};

interface FetchResponse {
  data: string;
  status: number;
  headers: Record<string, string>;
  /** Present because the request sets include_metadata; each field a string or null. */
  metadata: { title: string | null; [field: string]: string | null };
}

interface ErrorResponse {
  error: { code: string; message: string; details?: { field: string; message: string }[] };
}

const base = process.env.PAGE_FETCH_URL ?? 'http://127.0.0.1:8787';
const token = process.env.PAGE_FETCH_TOKEN ?? 'local-dev-token';
const [target, selector] = process.argv.slice(2);
const device = process.env.PAGE_FETCH_DEVICE;
if (target === undefined) {
  console.error('usage: tsx examples/fetch.ts URL [SELECTOR]');
  process.exit(2);
}

const response = await fetch(`${base}/api/fetch`, {
  method: 'POST',
  headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
  // max_age: a render of the same page stored within the hour answers at once (X-Cache: HIT).
  body: JSON.stringify({
    url: target,
    output_format: 'markdown',
    include_metadata: true,
    max_age: 3600,
    ...(selector === undefined ? {} : { wait_for_selector: selector }),
    ...(device ? { device } : {}),
  }),
});

if (!response.ok) {
  const { error } = (await response.json()) as ErrorResponse;
  console.error(`${response.status} ${error.code}: ${error.message}`);
  for (const issue of error.details ?? []) console.error(`  ${issue.field} ${issue.message}`);
  process.exit(1);
}

// 200 whatever the target answered: its own status is in the body (and in X-Page-Status).
const page = (await response.json()) as FetchResponse;
if (page.status >= 400) console.error(`note: the target answered ${page.status}`);
if (page.metadata.title !== null) console.error(`title: ${page.metadata.title}`);
console.error(`cache: ${response.headers.get('X-Cache')}`);
process.stdout.write(page.data);
