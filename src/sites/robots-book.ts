// The robots policies of the origins a site operation meets, each robots.txt fetched once (RFC 9309
// lets a crawler keep one for a day; a job is shorter) and at most MAX_ROBOTS_ORIGINS of them: URLs
// of origins past that are not judged, so they are left out as not known to be allowed.
import type { RobotsPolicy } from './robots.js';
import { readRobots, type SiteFileOptions } from './site-files.js';

export const MAX_ROBOTS_ORIGINS = 20;

export class RobotsBook {
  readonly #policies = new Map<string, Promise<RobotsPolicy>>();

  constructor(readonly options: SiteFileOptions) {}

  /** The policy of `url`'s origin; undefined once the book is full and this origin is new. */
  policyFor(url: URL): Promise<RobotsPolicy> | undefined {
    let policy = this.#policies.get(url.origin);
    if (policy === undefined) {
      if (this.#policies.size >= MAX_ROBOTS_ORIGINS) return undefined;
      policy = readRobots(url, this.options);
      this.#policies.set(url.origin, policy);
    }
    return policy;
  }

  /** Whether robots.txt of `url`'s origin allows it (false for an origin the book has no room for). */
  async allows(url: URL): Promise<boolean> {
    const policy = await this.policyFor(url);
    return policy?.allows(url.href) ?? false;
  }
}
