// The heading of a main-content extract (main-content/heading.ts): the page's title without the site's
// name (or its author's) appended to it, known from site_name, the canonical or page URL's host, the
// author, or as a domain name.
import { describe, expect, it } from 'vitest';
import { articleHeading } from '../../../src/main-content/heading.js';

const none = { site_name: null, canonical_url: null, author: null };
const PAGE = 'http://127.0.0.1:8080/article.html';

describe('articleHeading', () => {
  it.each([
    [
      'Clymer workshop manual review | MoreBikes',
      { site_name: 'MoreBikes', canonical_url: null, author: null },
      'Clymer workshop manual review',
    ],
    [
      'Fact Check: Is it true? - News Nation',
      { site_name: null, canonical_url: 'https://www.newsnation.in/a/1', author: null },
      'Fact Check: Is it true?',
    ],
    ['Investigating WeWork – TechCrunch', { site_name: 'TechCrunch', canonical_url: null, author: null }, 'Investigating WeWork'],
    ['Kindle shortcut keys | note100yen.com', none, 'Kindle shortcut keys'],
    [
      'Budget vote :: Daily Post | Example News',
      { site_name: 'Example News', canonical_url: 'https://dailypost.example/x', author: null },
      'Budget vote',
    ],
    [
      "'What is the sea telling us?': Māori tribes fearful over whale strandings | Eleanor Ainge Roy",
      { site_name: 'the Guardian', canonical_url: null, author: 'Eleanor Ainge Roy' },
      "'What is the sea telling us?': Māori tribes fearful over whale strandings",
    ],
  ])('drops the site name or the author from %j', (title, metadata, heading) => {
    expect(articleHeading(title, metadata, PAGE)).toBe(heading);
  });

  it.each([
    ['Opinion | Is Football Violence a Crime?', { site_name: 'The New York Times', canonical_url: null, author: null }],
    ['Stadia Falls Short of 4K at Launch', { site_name: 'Example', canonical_url: null, author: null }],
    ['Review - the new harbour wall', none],
    ['MoreBikes', { site_name: 'MoreBikes', canonical_url: null, author: null }],
    ['| MoreBikes', { site_name: 'MoreBikes', canonical_url: null, author: null }],
    ['Eleanor Ainge Roy | On whales', { site_name: null, canonical_url: null, author: 'Eleanor Ainge Roy' }],
    ['Eleanor Ainge Roy', { site_name: null, canonical_url: null, author: 'Eleanor Ainge Roy' }],
  ])('keeps %j as it is', (title, metadata) => {
    expect(articleHeading(title, metadata, PAGE)).toBe(title.trim());
  });

  it.each([
    ['NWX Magazin | Vertrauen hilft gegen Stress', none, 'https://nwx.new-work.se/magazin/stress', 'Vertrauen hilft gegen Stress'],
    [
      'MoreBikes - Clymer workshop manual review',
      { site_name: 'MoreBikes', canonical_url: null, author: null },
      PAGE,
      'Clymer workshop manual review',
    ],
    ['note100yen.com | Kindle shortcut keys', none, PAGE, 'Kindle shortcut keys'],
  ])('drops a leading site name from %j', (title, metadata, page, heading) => {
    expect(articleHeading(title, metadata, page)).toBe(heading);
  });

  it('keeps a leading section or author name, which is no site name', () => {
    expect(articleHeading('Opinion | Is Football Violence a Crime?', none, 'https://www.wsj.com/articles/x')).toBe(
      'Opinion | Is Football Violence a Crime?',
    );
    expect(
      articleHeading('Eleanor Ainge Roy | On whales', { site_name: null, canonical_url: null, author: 'Eleanor Ainge Roy' }, PAGE),
    ).toBe('Eleanor Ainge Roy | On whales');
  });

  it('learns the site name from the page URL when there is no other', () => {
    expect(articleHeading('Tide pools - Coastal Notes', none, 'https://coastalnotes.example/tide-pools')).toBe('Tide pools');
  });
});
