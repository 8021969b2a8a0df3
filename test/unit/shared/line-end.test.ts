// What the last mark of a PDF's line says (src/shared/line-end.ts): a line that may close its
// paragraph, and what no heading ends with; each question apart.
import { describe, expect, it } from 'vitest';
import { endsAsRunOn, endsClosed } from '../../../src/shared/line-end.js';

describe('endsClosed (a PDF line after which a paragraph may end)', () => {
  it.each(['the end.', 'a list:', 'a clause;', 'he said "so"', 'as quoted”', 'the reference (2019)', 'the citation [4]', 'why?'])(
    'takes %j for closed',
    (text) => {
      expect(endsClosed(text)).toBe(true);
    },
  );

  it.each(['and the line runs on', 'a comma,', 'an ellipsis…', 'a full-width stop。'])('does not take %j for closed', (text) => {
    expect(endsClosed(text)).toBe(false);
  });
});

describe('endsAsRunOn (what no heading ends with)', () => {
  it.each(['Body text.', 'a list,', 'one; two;'])('takes %j', (text) => {
    expect(endsAsRunOn(text)).toBe(true);
  });

  it.each(['Introduction', 'What is a policy?', 'Results:', '2.1 Methods', 'Stop!'])('leaves the heading %j', (text) => {
    expect(endsAsRunOn(text)).toBe(false);
  });
});
