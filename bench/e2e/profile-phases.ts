// A Worker CPU profile (worker-profiler.ts) charged to the phases of a request, in the project's
// own terms. Each sample is charged to one phase by its stack: the innermost frame in the project's
// sources (src/…) names the phase, through PHASES below, so puppeteer or Hono code called from a
// phase's module counts in that phase. A stack with no project frame is puppeteer's or the runtime's
// own work begun by an event (a CDP message arriving, a timer firing) rather than by a call of ours:
// it is charged by its leaf frame's package. V8's own entries — "(garbage collector)", "(program)"
// (the isolate busy outside JavaScript: workerd's native code, parsing) and "(idle)" — stay apart.
import type { Profile, ProfileNode } from './worker-profiler.js';
import type { SourceLookup } from './source-map-lookup.js';

/** Source path prefix → phase; the first prefix that matches wins (longer, more specific ones first). */
const PHASES: [prefix: string, phase: string][] = [
  ['src/api/cache/', 'cache: the store of renders (api/cache/)'],
  ['src/api/output.ts', 'output: the answer made from the outcome (api/output.ts)'],
  ['src/markdown/', 'output: the answer made from the outcome (api/output.ts)'],
  ['src/pdf/', 'PDF: bytes to markdown or html (pdf/, unpdf)'],
  ['src/browser/read/', 'read: the in-page read called and its result taken (browser/read/)'],
  ['src/consent/', 'consent: the frames watched, the round before the read (consent/)'],
  ['src/browser/page/', 'page: setup, load and waits (browser/page/)'],
  ['src/browser/fleet/', 'fleet: directory, hub, renderer, pool (browser/fleet/)'],
  ['src/browser/', 'page: setup, load and waits (browser/page/)'],
  ['src/guard/', 'API: Hono app, auth, validation, guard, response (api/)'],
  ['src/', 'API: Hono app, auth, validation, guard, response (api/)'],
  ['bench/worker/', 'API: Hono app, auth, validation, guard, response (api/)'],
];

/** Leaf package → phase, for a stack without a project frame. */
const UNCALLED: [prefix: string, phase: string][] = [
  ['node_modules/@cloudflare/puppeteer/', 'puppeteer: CDP messages and events on their own (no project frame)'],
  ['node_modules/unpdf/', 'PDF: bytes to markdown or html (pdf/, unpdf)'],
  ['node_modules/hono/', 'API: Hono app, auth, validation, guard, response (api/)'],
  ['node_modules/', 'other libraries on their own (no project frame)'],
];

const RUNTIME = 'runtime: workerd and Node-compat JavaScript, timers (no project frame)';
const V8_ENTRIES = new Set(['(garbage collector)', '(program)', '(idle)', '(root)']);

export interface Charge {
  /** Samples by phase, and by the module of the sample's leaf frame (src/api/…, node_modules/<package>). */
  phases: Map<string, number>;
  modules: Map<string, number>;
  samples: number;
  /**
   * The sampling period the sampler achieved while the isolate was busy, µs: the median of the gaps
   * under four times the period asked. A longer gap spans time outside the isolate's lock, when V8
   * records nothing, so it says how long the isolate waited, not what one sample stands for.
   */
  periodUs: number;
}

/** The module a source path belongs to: a project directory (src/api/cache/) or a package. */
function moduleOf(path: string): string {
  const parts = path.split('/');
  if (parts[0] === 'node_modules') return parts.slice(0, parts[1]?.startsWith('@') ? 3 : 2).join('/');
  if (parts[0] === 'src') return parts.length > 3 ? `${parts.slice(0, 3).join('/')}/` : path;
  return path;
}

const match = (table: [string, string][], path: string) => table.find(([prefix]) => path.startsWith(prefix))?.[1];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

export function chargeProfile(profile: Profile, lookup: SourceLookup, bundleUrl: string, askedUs: number): Charge {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, ProfileNode>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node);
  const pathOf = (node: ProfileNode) =>
    node.callFrame.url === bundleUrl ? lookup.sourceAt(node.callFrame.lineNumber, node.callFrame.columnNumber) : undefined;
  // Both charges of each node, computed once: the profile has far fewer nodes than samples.
  const charges = new Map<number, { phase: string; module: string }>();
  const chargeOf = (leaf: ProfileNode) => {
    const known = charges.get(leaf.id);
    if (known !== undefined) return known;
    const name = leaf.callFrame.functionName;
    let charge: { phase: string; module: string };
    if (V8_ENTRIES.has(name)) charge = { phase: name, module: name };
    else {
      const leafPath = pathOf(leaf);
      let phase: string | undefined;
      // The innermost frame of the bundle at all: what a native leaf (JSON.parse) was called by.
      let innermost: string | undefined;
      for (let node: ProfileNode | undefined = leaf; node !== undefined && phase === undefined; node = parent.get(node.id)) {
        const path = pathOf(node);
        innermost ??= path;
        if (path !== undefined) phase = match(PHASES, path);
      }
      phase ??= innermost === undefined ? RUNTIME : (match(UNCALLED, innermost) ?? RUNTIME);
      const module = leafPath === undefined ? `(native or runtime) ${name || '(anonymous)'}` : moduleOf(leafPath);
      charge = { phase, module };
    }
    charges.set(leaf.id, charge);
    return charge;
  };
  const phases = new Map<string, number>();
  const modules = new Map<string, number>();
  for (const id of profile.samples) {
    const { phase, module } = chargeOf(byId.get(id)!);
    phases.set(phase, (phases.get(phase) ?? 0) + 1);
    modules.set(module, (modules.get(module) ?? 0) + 1);
  }
  const busy = profile.timeDeltas.slice(1).filter((gap) => gap < 4 * askedUs);
  return { phases, modules, samples: profile.samples.length, periodUs: busy.length === 0 ? askedUs : median(busy) };
}
