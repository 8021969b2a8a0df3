// The words of a line (main-content/words.ts): how many a reader reads (the label, headline and site
// name rules count these), and the terms two titles are compared by and a date line is counted in.
import { describe, expect, it } from 'vitest';
import { termsOf, wordCount, wordsOf } from '../../../src/main-content/words.js';

describe('wordsOf and wordCount', () => {
  it('counts the runs between spaces that hold a letter or a digit', () => {
    expect(wordsOf(' Read  more:\n')).toEqual(['Read', 'more:']);
    expect(wordCount('Posted: Fri 6:45 PM, Feb 16, 2018')).toBe(7);
    expect(wordCount("U.S. don't 2018-02-24 news-nation.in")).toBe(4);
    expect(wordCount('Diesen Artikel teilen')).toBe(3);
  });

  it('does not count marks standing between words, nor white space', () => {
    expect(wordCount('Share | Facebook · Twitter — Email »')).toBe(4);
    expect(wordCount(' \n ')).toBe(0);
    expect(wordCount('')).toBe(0);
  });

  it('counts a line of a script written without spaces as one word', () => {
    expect(wordCount('記事を共有する')).toBe(1);
  });
});

describe('termsOf', () => {
  it('takes the runs of letters and digits, lower-cased', () => {
    expect(termsOf('HS Roundup: Viera defeats')).toEqual(['hs', 'roundup', 'viera', 'defeats']);
    expect(termsOf('2018-02-24, 6:45')).toEqual(['2018', '02', '24', '6', '45']);
    expect(termsOf('Ça déménage')).toEqual(['ça', 'déménage']);
  });

  it('takes no mark, space or underscore for part of a term', () => {
    expect(termsOf('— | · _ !')).toEqual([]);
    expect(termsOf('snake_case')).toEqual(['snake', 'case']);
  });
});
