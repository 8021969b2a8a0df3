// The hook where a job learns that a page is a bot wall (docs/api.md "Sites": recorded `blocked`, not
// fetched). The fetch pipeline does not report a verdict yet; once its render outcome carries one,
// this returns it and the page is recorded `blocked` with it.
import type { StoredRender } from '../api/cache/render-store.js';

export interface BlockedVerdict {
  vendor: string;
  kind: string;
}

export function blockedVerdictOf(_page: StoredRender): BlockedVerdict | undefined {
  return undefined;
}
