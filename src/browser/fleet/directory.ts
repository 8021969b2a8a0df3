// The Durable Object that admits one launch location's requests to its browsers (one per location,
// named by the Worker, api/fetch-page.ts): only wiring. The binding becomes a FleetDirectory whose hubs are the
// location's BrowserHub objects, and whose launch pacing is Browser Rendering's own limits.
import puppeteer from '@cloudflare/puppeteer';
import { DurableObject } from 'cloudflare:workers';
import type { BrowserLocation } from '../../shared/locations.js';
import { FleetDirectory } from './fleet-directory.js';
import type { BrowserHub } from './hub.js';
import type { RenderCall, RenderOutcome } from '../render-call.js';

/** What the directory reads of the deployment's Env. */
export interface DirectoryEnv {
  BROWSER: Fetcher;
  BROWSER_HUB: DurableObjectNamespace<BrowserHub>;
}

/** Hub `index` of a location: a browser is only ever reused where it was launched. */
function hubName(location: BrowserLocation | undefined, index: number): string {
  return `browser-hub:${location ?? 'any'}:${index}`;
}

export class BrowserDirectory extends DurableObject<DirectoryEnv> {
  private readonly fleet = new FleetDirectory(
    (index, call) => this.env.BROWSER_HUB.get(this.env.BROWSER_HUB.idFromName(hubName(call.location, index))).render(call),
    async () => (await puppeteer.limits(this.env.BROWSER)).timeUntilNextAllowedBrowserAcquisition,
  );

  /** The call's outcome: rendered by one of the location's hubs, or refused (503 browser_unavailable) when none has a page in time. */
  async admit(call: RenderCall): Promise<RenderOutcome> {
    return this.fleet.admit(call);
  }

  /** Whether a job page may come now, or should go back to the jobs' queue (docs/fleet.md "Job pages"). */
  async jobPageMayCome(): Promise<boolean> {
    return this.fleet.jobPageMayCome();
  }
}
