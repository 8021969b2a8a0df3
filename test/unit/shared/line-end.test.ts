// What the last mark of a line says (src/shared/line-end.ts): a sentence's end, prose's end, a PDF
// line that may close its paragraph, and what no heading ends with; each question apart.
import { describe, expect, it } from 'vitest';
import { endsAsProse, endsAsRunOn, endsAsSentence, endsClosed } from '../../../src/shared/line-end.js';

describe('endsAsSentence', () => {
  it.each([
    'The tide turns at dawn.',
    'Who goes there?',
    'Stop!',
    'And then…',
    '“He left at noon.”',
    '(See the map.)',
    "It said 'yes.'",
    '潮は夜明けに変わる。',
    '本当ですか？',
  ])('takes %j for a sentence', (text) => {
    expect(endsAsSentence(text)).toBe(true);
  });

  it.each(['Contact:', 'Previous article', 'Back', 'Share this guide', 'Notes;', '“Quoted”', '(2019)', 'Ends with a space. ', ''])(
    'does not take %j for one',
    (text) => {
      expect(endsAsSentence(text)).toBe(false);
    },
  );
});

describe('endsAsProse', () => {
  it.each(['A sentence.', 'As shown below:', 'First clause;', 'Wie folgt：', '“Is it?”', 'Then…'])('takes %j for prose', (text) => {
    expect(endsAsProse(text)).toBe(true);
  });

  it.each(['Kate Henshaw', 'Light a Wish by OGE Group', 'Photo: AFP', '(Image: Getty)', '“Untitled”'])(
    'does not take the caption %j for prose',
    (text) => {
      expect(endsAsProse(text)).toBe(false);
    },
  );
});

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
