import { describe, expect, it } from 'vitest';
import { MAX_SELECTOR_LENGTH, selectorProblem } from '../../../src/api/css-selector.js';

// Chromium 156's own answers (document.createDocumentFragment().querySelector), measured: the Worker
// must take every selector Chromium takes, and may leave the final word on the rest to the browser.
const CHROMIUM_TAKES = [
  'p',
  '#main .content > p:first-of-type',
  ':has(> img)',
  'div:has(+ p)',
  ':is(a, b) > c',
  ':where(.x)',
  ':not(a, b)',
  'li:nth-child(2n+1 of .x)',
  ':nth-child(-n+3)',
  '[a="b" i]',
  "a[href*='x' s]",
  '::slotted(span)',
  '::part(x)',
  ':state(x)',
  ':host',
  '*|a',
  '#\\31 23',
  'ü.λ',
  'a::before',
  '::-webkit-scrollbar',
  ':-webkit-any(a)',
  '&',
  'a & b',
  // CSS closes what is open at the end of input, and :is() and :where() forgive bad arguments.
  '[a=b',
  "[a='b",
  ':is(a',
  'a:is(b,',
  'a\\',
  ':is()',
  ':where()',
  ':is(a,,b)',
  ':is(:foo, a)',
];

// Refused by Chromium and by the Worker's parser alike (no browser work for these).
const NOT_SELECTORS = ['a;b', 'a||b', ',a', '{', '}', '.1a', '@media', 'a)', 'a]', 'a"'];

// Refused by Chromium but taken by the parser (or cut off at the end of input, where CSS may still
// close it): the browser refuses these on the fresh page, before navigation (test/e2e/late-pages).
const LEFT_TO_THE_BROWSER = ['p:no-such-state', '::foo', 'a >> b', '> p', 'div >', 'a + + b', 'div[', ':has(', '.', '#'];

describe('selectorProblem', () => {
  it.each(CHROMIUM_TAKES)('takes %j, which Chromium takes', (selector) => {
    expect(selectorProblem(selector)).toBeUndefined();
  });

  it.each(NOT_SELECTORS)('refuses %j, naming the parser’s reason', (selector) => {
    expect(selectorProblem(selector)).toMatch(/^is not a valid CSS selector \(.+\)$/);
  });

  it.each(LEFT_TO_THE_BROWSER)('leaves %j to Chromium’s own check', (selector) => {
    expect(selectorProblem(selector)).toBeUndefined();
  });

  it.each(['', ' ', '\t\n'])('refuses the empty selector %j', (selector) => {
    expect(selectorProblem(selector)).toBe('must not be empty');
  });

  it('refuses a selector over the length bound, and takes one at it', () => {
    expect(selectorProblem(`#${'a'.repeat(MAX_SELECTOR_LENGTH - 1)}`)).toBeUndefined();
    expect(selectorProblem(`#${'a'.repeat(MAX_SELECTOR_LENGTH)}`)).toBe(`must be at most ${MAX_SELECTOR_LENGTH} characters`);
  });
});
