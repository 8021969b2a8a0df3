#!/usr/bin/env bash
# Page Fetch from the shell: renders the page given as the first argument and prints its markdown.
# PAGE_FETCH_URL (default http://127.0.0.1:8787) is the service, PAGE_FETCH_TOKEN (default
# local-dev-token) the bearer token. Usage: examples/curl.sh URL [SELECTOR]: with a CSS selector, the
# page is taken once an element matching it is rendered (wait_for_selector), for content that
# arrives late. PAGE_FETCH_DEVICE=mobile asks for the page a phone gets (device).
set -euo pipefail

base="${PAGE_FETCH_URL:-http://127.0.0.1:8787}"
token="${PAGE_FETCH_TOKEN:-local-dev-token}"
target="${1:?usage: $0 URL [SELECTOR]}"
selector="${2:-}"

# The URL and the selector go into JSON strings, so their backslashes and quotes are escaped.
json_string() { printf '"%s"' "$(printf '%s' "$1" | sed -e 's/\\/\\\\/g' -e 's/"/\\"/g')"; }
wait_for=""
if [ -n "$selector" ]; then wait_for=", \"wait_for_selector\": $(json_string "$selector")"; fi
device=""
if [ -n "${PAGE_FETCH_DEVICE:-}" ]; then device=", \"device\": $(json_string "$PAGE_FETCH_DEVICE")"; fi

# raw: true returns the markdown itself (text/plain), so no JSON parser is needed; an error is
# still JSON ({"error": {"code", "message"}}), and --fail-with-body makes curl exit non-zero on it.
# max_age: a render of the same page stored within the hour answers at once, without a browser.
curl -sS --fail-with-body "$base/api/fetch" \
  -H "Authorization: Bearer $token" \
  -H 'Content-Type: application/json' \
  -d "{\"url\": $(json_string "$target"), \"output_format\": \"markdown\", \"raw\": true, \"max_age\": 3600$wait_for$device}"
