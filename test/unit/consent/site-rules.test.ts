// The Durable Object's answer to a document that may run a consent site rule: exactly the package's
// filter on the whole rule set for that URL and frame kind; anything else on the binding is not a request.
import { filterCompactRules, type IndexedCMPRuleset } from '@duckduckgo/autoconsent';
import COMPACT_RULES from '@duckduckgo/autoconsent/rules/compact-rules.json';
import { describe, expect, it } from 'vitest';
import { consentRulesDesk, rulesRequest } from '../../../src/consent/site-rules.js';

const RULES = COMPACT_RULES as unknown as IndexedCMPRuleset;
const request = (rulesFor: string, mainFrame = true) => ({ rulesFor, mainFrame });

describe('rulesRequest', () => {
  it('reads a request', () => {
    expect(rulesRequest(JSON.stringify(request('https://www.dropbox.com/home', false)))).toEqual(
      request('https://www.dropbox.com/home', false),
    );
  });

  it.each([
    ['a report', JSON.stringify({ frame: 'a', event: 'found', cmp: 'Onetrust' })],
    ['a URL that is not a string', JSON.stringify({ rulesFor: 1, mainFrame: true })],
    ['no frame kind', JSON.stringify({ rulesFor: 'https://a.example/' })],
    ['broken JSON', '{"rulesFor": "https://a.example/"'],
    ['not a string', { rulesFor: 'https://a.example/', mainFrame: true }],
  ])('takes %s for no request', (_, payload) => {
    expect(rulesRequest(payload)).toBeUndefined();
  });
});

describe('consentRulesDesk', () => {
  it.each([
    ['https://www.dropbox.com/home', true],
    ['https://www.dropbox.com/home', false],
    ['https://help.dropbox.com/account', true],
    ['https://www.theguardian.com/uk', true],
    ['http://127.0.0.1:8787/consent/onetrust?from=dropbox.com/', true],
    ['https://example.org/', true],
  ])('answers %s (main frame: %s) with what the package filter gives from the whole set', (url, mainFrame) => {
    const answer = consentRulesDesk()(request(url, mainFrame));
    expect(JSON.parse(answer as string)).toEqual(filterCompactRules(RULES, { url, mainFrame }));
  });

  it('answers with the site rule of its URL', () => {
    const answer = JSON.parse(consentRulesDesk()(request('https://www.theguardian.com/uk')) as string) as IndexedCMPRuleset;
    expect(answer.r.map((rule) => rule[1])).toContain('theguardian.com');
  });

  it('refuses a URL longer than any site rule needs', () => {
    expect(consentRulesDesk()(request(`https://www.dropbox.com/${'a'.repeat(16 * 1024)}`))).toBeNull();
  });

  it('answers a page 50 requests, then refuses', () => {
    const answer = consentRulesDesk();
    for (let i = 0; i < 50; i++) expect(answer(request('https://example.org/'))).not.toBeNull();
    expect(answer(request('https://example.org/'))).toBeNull();
  });
});
