import { describe, expect, it } from 'vitest';
import { robotsPolicy } from '../../../src/sites/robots.js';

const ROBOTS = 'https://example.com/robots.txt';
const policy = (body: string) => robotsPolicy(ROBOTS, { status: 200, body });

describe('robotsPolicy (RFC 9309)', () => {
  it('takes the group of the PageFetch token over `*`, in any case', () => {
    const robots = policy('User-agent: *\nDisallow: /\n\nUser-agent: pagefetch\nDisallow: /private\n');
    expect(robots.allows('https://example.com/docs')).toBe(true);
    expect(robots.allows('https://example.com/private/a')).toBe(false);
  });

  it('falls back to `*` when no group names PageFetch', () => {
    const robots = policy('User-agent: OtherBot\nDisallow: /\n\nUser-agent: *\nDisallow: /admin\n');
    expect(robots.allows('https://example.com/docs')).toBe(true);
    expect(robots.allows('https://example.com/admin')).toBe(false);
  });

  it('lets the longest match win, and Allow win a tie', () => {
    const robots = policy('User-agent: *\nDisallow: /docs\nAllow: /docs/public\nAllow: /tie\nDisallow: /tie\n');
    expect(robots.allows('https://example.com/docs/secret')).toBe(false);
    expect(robots.allows('https://example.com/docs/public/a')).toBe(true);
    expect(robots.allows('https://example.com/tie')).toBe(true);
  });

  it('reads `*` and `$` in rules', () => {
    const robots = policy('User-agent: *\nDisallow: /*.pdf$\n');
    expect(robots.allows('https://example.com/a/b.pdf')).toBe(false);
    expect(robots.allows('https://example.com/a/b.pdf?x')).toBe(true);
  });

  it('gives the Crawl-delay of the group that applies, in ms, and the Sitemap lines', () => {
    const robots = policy('User-agent: *\nCrawl-delay: 1.5\nSitemap: https://example.com/s.xml\n');
    expect(robots.crawlDelayMs).toBe(1500);
    expect(robots.sitemaps).toEqual(['https://example.com/s.xml']);
    expect(policy('User-agent: *\nDisallow:\n').crawlDelayMs).toBeUndefined();
  });

  it('allows everything on a 4xx robots.txt', () => {
    expect(robotsPolicy(ROBOTS, { status: 404, body: 'User-agent: *\nDisallow: /' }).allows('https://example.com/a')).toBe(true);
    expect(robotsPolicy(ROBOTS, { status: 403, body: '' }).allows('https://example.com/a')).toBe(true);
  });

  it('disallows everything on a 5xx or unreachable robots.txt', () => {
    expect(robotsPolicy(ROBOTS, { status: 503, body: '' }).allows('https://example.com/a')).toBe(false);
    expect(robotsPolicy(ROBOTS, { status: 'unreachable' }).allows('https://example.com/a')).toBe(false);
  });

  it('allows everything with an empty robots.txt', () => {
    expect(policy('').allows('https://example.com/a')).toBe(true);
  });
});
