#!/usr/bin/env python3
"""Page Fetch from Python 3 with the standard library only: renders the page given as the first
argument and prints its markdown (its title, from the page's metadata, goes to stderr).
PAGE_FETCH_URL (default http://127.0.0.1:8787) is the service, PAGE_FETCH_TOKEN (default
local-dev-token) the bearer token. Run: python3 examples/fetch.py URL [SELECTOR]
(with a CSS selector, the page is taken once an element matching it is rendered: wait_for_selector).
PAGE_FETCH_DEVICE=mobile asks for the page a phone gets (device).
The request and response shapes are in GET /openapi.json."""
import json
import os
import sys
import urllib.error
import urllib.request

base = os.environ.get("PAGE_FETCH_URL", "http://127.0.0.1:8787")
token = os.environ.get("PAGE_FETCH_TOKEN", "local-dev-token")
if len(sys.argv) < 2:
    sys.exit("usage: python3 examples/fetch.py URL [SELECTOR]")

body = {"url": sys.argv[1], "output_format": "markdown", "include_metadata": True, "max_age": 3600}
if len(sys.argv) > 2:
    body["wait_for_selector"] = sys.argv[2]
if os.environ.get("PAGE_FETCH_DEVICE"):
    body["device"] = os.environ["PAGE_FETCH_DEVICE"]

request = urllib.request.Request(
    f"{base}/api/fetch",
    method="POST",
    headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    # max_age: a render of the same page stored within the hour answers at once (X-Cache: HIT).
    data=json.dumps(body).encode("utf-8"),
)
try:
    # Rendering waits for the page (wait_ms, at most MAX_WAIT_MS), so the timeout is generous.
    with urllib.request.urlopen(request, timeout=120) as response:
        page = json.load(response)
        cache = response.headers["X-Cache"]
except urllib.error.HTTPError as failure:
    # Every error answer is {"error": {"code", "message", "details"?}}.
    error = json.load(failure)["error"]
    print(f"{failure.code} {error['code']}: {error['message']}", file=sys.stderr)
    for issue in error.get("details", []):
        print(f"  {issue['field']} {issue['message']}", file=sys.stderr)
    sys.exit(1)

# 200 whatever the target answered: its own status is in the body (and in X-Page-Status).
if page["status"] >= 400:
    print(f"note: the target answered {page['status']}", file=sys.stderr)
if page["metadata"]["title"] is not None:
    print(f"title: {page['metadata']['title']}", file=sys.stderr)
print(f"cache: {cache}", file=sys.stderr)
sys.stdout.write(page["data"])
