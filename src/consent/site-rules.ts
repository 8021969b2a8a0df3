// The consent rules of a document that may run a site rule (docs/api.md "Consent dialogs"). The consent
// preload carries every rule of the set but its ~600 site rules, whose text alone delayed every
// document by a few ms; a document whose URL holds one of their texts asks through the consent
// binding (consent/engine/preload.ts), and the Durable Object answers from the whole split set
// (build/consent-rules.json, made by scripts/build-page-script.mjs) with exactly what the package's
// filter gives that URL and frame kind (consentRulesFor).
import SPLIT_RULES_JSON from '../../build/consent-rules.json?raw';
import { consentRulesFor, type SiteRules, type SplitRules } from './rules.js';
import type { ConsentRulesRequest } from '../in-page/protocol.js';

/** Requests answered for one page at most: a page asking in a loop costs nothing more. */
const MAX_REQUESTS = 50;
/** Longer URLs are refused: the texts are looked for in the whole URL, and no site rule's page needs one this long. */
const MAX_URL_LENGTH = 16 * 1024;

let parsed: SplitRules | undefined;

/** The split rule set, parsed on the first request this isolate answers. */
function splitRules(): SplitRules {
  if (parsed === undefined) {
    const { base, siteIndex, site } = JSON.parse(SPLIT_RULES_JSON) as Omit<SplitRules, 'site'> & { site: SiteRules };
    parsed = { base, siteIndex, site: () => site };
  }
  return parsed;
}

/** The binding's payload as a rules request, or undefined when it is something else (a report). */
export function rulesRequest(payload: unknown): ConsentRulesRequest | undefined {
  if (typeof payload !== 'string' || !payload.includes('"rulesFor"')) return undefined;
  try {
    const request = JSON.parse(payload) as Partial<ConsentRulesRequest>;
    if (typeof request.rulesFor !== 'string' || typeof request.mainFrame !== 'boolean') return undefined;
    return { rulesFor: request.rulesFor, mainFrame: request.mainFrame };
  } catch {
    return undefined;
  }
}

/** One page's answers: the JSON of the request's rule set, or null when refused (the document then runs the rules it carries). */
export function consentRulesDesk(): (request: ConsentRulesRequest) => string | null {
  let requests = 0;
  return ({ rulesFor, mainFrame }) => {
    if (++requests > MAX_REQUESTS || rulesFor.length > MAX_URL_LENGTH) return null;
    return JSON.stringify(consentRulesFor(rulesFor, mainFrame, splitRules()));
  };
}
