// `search` of POST /api/map (docs/api.md "Sites"): keep the URLs whose URL or link text holds the
// search's words, ordered by how many they hold (ties keep their order of discovery). Words are
// matched case-insensitively as substrings, so `api` finds `/docs/api-reference`.

export interface Searchable {
  url: string;
  title?: string;
}

function words(search: string): string[] {
  return [
    ...new Set(
      search
        .toLowerCase()
        .split(/\s+/)
        .filter((word) => word !== ''),
    ),
  ];
}

/** The entries that hold at least one word of `search`, most words first. */
export function searchLinks<Entry extends Searchable>(entries: readonly Entry[], search: string): Entry[] {
  const wanted = words(search);
  if (wanted.length === 0) return [...entries];
  const scored = entries.map((entry, order) => {
    let haystack = entry.url.toLowerCase();
    try {
      haystack += ` ${decodeURIComponent(haystack)}`;
    } catch {
      // A URL with a stray % is searched as written.
    }
    if (entry.title !== undefined) haystack += ` ${entry.title.toLowerCase()}`;
    return { entry, order, hits: wanted.filter((word) => haystack.includes(word)).length };
  });
  return scored
    .filter((scoredEntry) => scoredEntry.hits > 0)
    .sort((a, b) => b.hits - a.hits || a.order - b.order)
    .map((scoredEntry) => scoredEntry.entry);
}
