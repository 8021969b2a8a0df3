// `npm run test:mcp-conformance`: the Model Context Protocol's own conformance suite
// (@modelcontextprotocol/conformance, server scenarios) against the real Worker under wrangler dev.
// Every scenario the suite lists must be named below, as applying to a stateless tools-only server
// (then each of its checks must succeed) or not, with the reason; a scenario the suite adds fails the
// run until someone decides. The suite's client sends no custom headers, so it talks to the Worker
// through a loopback hop that adds the bearer token; the token check itself is covered by e2e tests.
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startWorker, TEST_TOKEN } from '../e2e/support/worker.js';

const CONFORMANCE = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/conformance/dist/index.js', import.meta.url));

const APPLIES = ['server-initialize', 'ping', 'tools-list'];

const NOT_APPLICABLE: Record<string, string> = {
  'logging-set-level': 'the server declares no logging capability',
  'completion-complete': 'the server declares no completions capability (no prompts or resource templates to complete)',
  'tools-call-simple-text': "calls the suite's own test tool (test_simple_text); the tools here are fetch_page and the site tools",
  'tools-call-image': "calls the suite's own test tool (test_image_content)",
  'tools-call-audio': "calls the suite's own test tool (test_audio_content)",
  'tools-call-embedded-resource': "calls the suite's own test tool (test_embedded_resource)",
  'tools-call-mixed-content': "calls the suite's own test tool (test_multiple_content_types)",
  'tools-call-with-logging': "calls the suite's own test tool (test_tool_with_logging); no logging capability",
  'tools-call-error': "calls the suite's own test tool (test_error_handling); fetch_page's tool errors are e2e-tested",
  'tools-call-with-progress': "calls the suite's own test tool (test_tool_with_progress)",
  'tools-call-sampling': 'needs a server-to-client request (sampling), which a stateless JSON-response server cannot send',
  'tools-call-elicitation': 'needs a server-to-client request (elicitation), which a stateless JSON-response server cannot send',
  'json-schema-2020-12': "lists the suite's own test tool (json_schema_2020_12_tool)",
  'elicitation-sep1034-defaults': 'needs a server-to-client request (elicitation)',
  'elicitation-sep1330-enums': 'needs a server-to-client request (elicitation)',
  'server-sse-polling': "needs sessions, SSE responses and the suite's test_reconnection tool; answers here are single JSON replies",
  'server-sse-multiple-streams': 'needs sessions and SSE streams; the server is stateless with JSON replies',
  'resources-list': 'the server declares no resources capability',
  'resources-read-text': 'the server declares no resources capability',
  'resources-read-binary': 'the server declares no resources capability',
  'resources-templates-read': 'the server declares no resources capability',
  'resources-subscribe': 'the server declares no resources capability',
  'resources-unsubscribe': 'the server declares no resources capability',
  'prompts-list': 'the server declares no prompts capability',
  'prompts-get-simple': 'the server declares no prompts capability',
  'prompts-get-with-args': 'the server declares no prompts capability',
  'prompts-get-embedded-resource': 'the server declares no prompts capability',
  'prompts-get-with-image': 'the server declares no prompts capability',
  'dns-rebinding-protection':
    'its scope is localhost servers without authentication; every request here needs the bearer token, which a rebinding page cannot send',
};

interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  errorMessage?: string;
}

function serverScenarios(): string[] {
  const listing = execFileSync(process.execPath, [CONFORMANCE, 'list', '--server'], { encoding: 'utf8' });
  return [...listing.matchAll(/^\s+- (\S+)$/gm)].map((match) => match[1]!);
}

/** A loopback hop that adds the bearer token to every request it passes on to `origin`. */
async function startTokenHop(origin: string): Promise<{ url: string; server: Server }> {
  const server = createServer((incoming, outgoing) => {
    const upstream = request(
      new URL(incoming.url ?? '/', origin),
      { method: incoming.method, headers: { ...incoming.headers, authorization: `Bearer ${TEST_TOKEN}` } },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    upstream.on('error', () => outgoing.destroy());
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://localhost:${(server.address() as AddressInfo).port}/mcp`, server };
}

/** Runs one scenario and returns its checks, read from the result folder the suite writes. Not sync: the hop runs in this process. */
async function runScenario(url: string, scenario: string): Promise<Check[]> {
  const outDir = mkdtempSync(join(tmpdir(), 'page-fetch-mcp-conformance-'));
  try {
    try {
      await promisify(execFile)(process.execPath, [CONFORMANCE, 'server', '--url', url, '--scenario', scenario, '-o', outDir]);
    } catch {
      // A failing scenario exits non-zero; its checks say why.
    }
    const [resultDir] = readdirSync(outDir);
    if (resultDir === undefined) return [{ id: scenario, status: 'FAILURE', errorMessage: 'the suite wrote no result' }];
    return JSON.parse(readFileSync(join(outDir, resultDir, 'checks.json'), 'utf8')) as Check[];
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

async function main(): Promise<number> {
  const scenarios = serverScenarios();
  const undecided = scenarios.filter((scenario) => !APPLIES.includes(scenario) && !(scenario in NOT_APPLICABLE));
  const missing = APPLIES.filter((scenario) => !scenarios.includes(scenario));
  const worker = await startWorker();
  const hop = await startTokenHop(worker.origin);
  let failed = undecided.length + missing.length;
  try {
    console.log(`MCP conformance (${scenarios.length} server scenarios), Worker at ${worker.origin}/mcp\n`);
    for (const scenario of APPLIES.filter((name) => scenarios.includes(name))) {
      const checks = await runScenario(hop.url, scenario);
      const bad = checks.filter((check) => check.status !== 'SUCCESS');
      failed += bad.length > 0 || checks.length === 0 ? 1 : 0;
      console.log(`${bad.length === 0 && checks.length > 0 ? 'pass' : 'FAIL'}  ${scenario} (${checks.length} checks)`);
      for (const check of bad) console.log(`      ${check.status} ${check.id}: ${check.errorMessage ?? ''}`);
    }
    for (const scenario of scenarios.filter((name) => name in NOT_APPLICABLE)) {
      console.log(`n/a   ${scenario}: ${NOT_APPLICABLE[scenario]}`);
    }
    for (const scenario of undecided) console.log(`FAIL  ${scenario}: new in the suite; decide whether it applies`);
    for (const scenario of missing) console.log(`FAIL  ${scenario}: no longer in the suite`);
  } finally {
    hop.server.close();
    await worker.stop();
  }
  console.log(failed === 0 ? '\nEvery applicable scenario passed.' : `\n${failed} problem(s).`);
  return failed === 0 ? 0 : 1;
}

process.exitCode = await main();
