// Stored renders in Workers KV (docs/cache.md): the answer's content and page fields as one
// JSON value, the render's time as the entry's metadata (read in the same call), and KV's own
// expiry (`expirationTtl`, at least 60 s there) removing entries after MAX_CACHE_AGE. A store that
// fails is a miss, never an error: the render is the source of truth.
import type { RenderedPage } from '../../browser/index.js';

/** What an answer needs of a render; a hit answers from it exactly as the render did. */
export type StoredRender = Pick<
  RenderedPage,
  | 'status'
  | 'headers'
  | 'finalUrl'
  | 'waitResult'
  | 'contentMode'
  | 'metadata'
  | 'selectorMatches'
  | 'documentKind'
  | 'pdfPages'
  | 'links'
  | 'images'
  | 'screenshot'
  | 'screenshotMatches'
  | 'screenshotTruncated'
> & {
  /** The content in the requested format. */
  content: string;
};

interface EntryMetadata {
  /** When the render was taken, ms since the epoch. */
  renderedAt: number;
}

/** KV refuses a shorter expirationTtl; reads still hold entries to MAX_CACHE_AGE. */
const KV_MIN_TTL_SECONDS = 60;

export class RenderStore {
  constructor(
    private readonly kv: KVNamespace,
    private readonly maxCacheAge: number,
  ) {}

  /** The entry for `key` if it is at most `maxAge` seconds old, with its age in whole seconds. */
  async read(key: string, maxAge: number, now = Date.now()): Promise<{ render: StoredRender; age: number } | undefined> {
    const { value, metadata } = await this.kv.getWithMetadata<StoredRender, EntryMetadata>(key, 'json');
    if (value === null || metadata === null) return undefined;
    // Clocks of two locations may disagree by a little; an entry is never younger than 0.
    const age = Math.max(0, Math.floor((now - metadata.renderedAt) / 1000));
    return age <= Math.min(maxAge, this.maxCacheAge) ? { render: value, age } : undefined;
  }

  /** Stores a render taken at `renderedAt`, replacing the key's older one. */
  async write(key: string, render: StoredRender, renderedAt: number): Promise<void> {
    const metadata: EntryMetadata = { renderedAt };
    await this.kv.put(key, JSON.stringify(render), {
      expirationTtl: Math.max(KV_MIN_TTL_SECONDS, this.maxCacheAge),
      metadata,
    });
  }
}
