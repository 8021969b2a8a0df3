#!/usr/bin/env bash
# Page Fetch from the shell: renders the page given as the first argument and prints its markdown.
# PAGE_FETCH_URL (default http://127.0.0.1:8787) is the service, PAGE_FETCH_TOKEN (default
# local-dev-token) the bearer token. Usage: examples/curl.sh URL [SELECTOR]: with a CSS selector, the
# page is taken once an element matching it is rendered (wait_for_selector), for content that
# arrives late. PAGE_FETCH_DEVICE=mobile asks for the page a phone gets (device).
#
# The site operations (docs/api.md "Sites"), each printing the API's JSON:
#   examples/curl.sh map URL [SEARCH]       the site's URLs (sitemaps and the start page's links)
#   examples/curl.sh crawl URL [LIMIT]      starts a crawl (markdown pages); prints {"id", "url"}
#   examples/curl.sh batch URL...           starts a job that fetches these URLs
#   examples/curl.sh wait ID                polls the job until it has ended; prints its status
#   examples/curl.sh pages ID               every page record, one answer per line, through next_cursor
#   examples/curl.sh cancel ID              cancels the job
set -euo pipefail

base="${PAGE_FETCH_URL:-http://127.0.0.1:8787}"
token="${PAGE_FETCH_TOKEN:-local-dev-token}"

# The URL and the selector go into JSON strings, so their backslashes and quotes are escaped.
json_string() { printf '"%s"' "$(printf '%s' "$1" | sed -e 's/\\/\\\\/g' -e 's/"/\\"/g')"; }

# One call to the API with the token; --fail-with-body exits non-zero on an error, printing its JSON.
api() { curl -sS --fail-with-body -H "Authorization: Bearer $token" -H 'Content-Type: application/json' "$@"; }
# A string field of a JSON answer: the job's status or next_cursor (a page's status is a number).
field() { sed -n "s/^[^{]*{.*\"$1\":\"\([^\"]*\)\".*$/\1/p" | head -n 1; }

case "${1:-}" in
  map)
    search=""
    if [ -n "${3:-}" ]; then search=", \"search\": $(json_string "$3")"; fi
    api "$base/api/map" -d "{\"url\": $(json_string "${2:?usage: $0 map URL [SEARCH]}")$search}"
    exit ;;
  crawl)
    api "$base/api/crawl" -d "{\"url\": $(json_string "${2:?usage: $0 crawl URL [LIMIT]}"), \"limit\": ${3:-20}, \"page\": {\"output_format\": \"markdown\", \"only_main_content\": true}}"
    exit ;;
  batch)
    shift
    urls=""
    for url in "${@:?usage: $0 batch URL...}"; do urls="$urls${urls:+, }$(json_string "$url")"; done
    api "$base/api/batch" -d "{\"urls\": [$urls], \"page\": {\"output_format\": \"markdown\"}}"
    exit ;;
  wait)
    id="${2:?usage: $0 wait ID}"
    while :; do
      status="$(api "$base/api/jobs/$id" | field status)"
      case "$status" in queued|running) sleep 2 ;; *) echo "$status"; exit ;; esac
    done ;;
  pages)
    # Each answer holds at most JOB_PAGE_BYTES of records; next_cursor leads to the next (null at the end).
    id="${2:?usage: $0 pages ID}"
    cursor=""
    while :; do
      answer="$(api "$base/api/jobs/$id${cursor:+?cursor=$cursor}")"
      printf '%s\n' "$answer"
      cursor="$(printf '%s' "$answer" | field next_cursor)"
      [ -n "$cursor" ] || exit 0
    done ;;
  cancel)
    api -X DELETE "$base/api/jobs/${2:?usage: $0 cancel ID}"
    exit ;;
esac

target="${1:?usage: $0 URL [SELECTOR] | map|crawl|batch|wait|pages|cancel ...}"
selector="${2:-}"
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
