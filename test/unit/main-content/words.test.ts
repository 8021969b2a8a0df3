// The words of a line (main-content/words.ts): how many a reader reads (the label, headline and site
// name rules count these), the terms two titles are compared by and a date line is counted in, and
// whether a line ends as a sentence or as prose, in every script.
import { describe, expect, it } from 'vitest';
import { endsAsProse, endsAsSentence, termsOf, wordCount, wordsOf } from '../../../src/main-content/words.js';

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

  it('counts the words of a script written without spaces, as a word segmenter finds them', () => {
    // Thai writes no space between words and none of its sentences' ends: a paragraph is a few long runs.
    expect(wordCount('เชียงใหม่เป็นเมืองที่มีประวัติศาสตร์ยาวนาน')).toBeGreaterThanOrEqual(6);
    expect(wordCount('記事を共有する')).toBeGreaterThanOrEqual(2);
    expect(wordCount('相关阅读')).toBe(2);
    expect(wordCount('我们今天去了北京的博物馆参观古代文物')).toBeGreaterThan(6);
  });

  it('counts a spaced script inside such a run as one word, as it would be on its own', () => {
    expect(wordsOf('iPhone15を買った')).toContain('iPhone15');
    expect(wordCount('U.S.の経済')).toBe(1 + wordCount('の経済'));
  });

  it('counts Hindi, Arabic and Hebrew between their spaces', () => {
    expect(wordCount('यह लेख हिंदी में लिखा गया है।')).toBe(7);
    expect(wordCount('هذا المقال مكتوب باللغة العربية.')).toBe(5);
    expect(wordCount('המאמר הזה כתוב בעברית.')).toBe(4);
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
    '他们明天出发！',
    'यह लेख हिंदी में लिखा गया है।',
    'पहली पंक्ति॥',
    'هل قرأت المقال؟',
    'ဒီနေ့ မိုးရွာတယ်။',
    'ይህ ጽሑፍ ነው።',
    'המאמר הזה כתוב בעברית.',
  ])('takes %j for a sentence', (text) => {
    expect(endsAsSentence(text)).toBe(true);
  });

  it.each([
    'Contact:',
    'Previous article',
    'Back',
    'Share this guide',
    'Notes;',
    '“Quoted”',
    '(2019)',
    'Ends with a space. ',
    '',
    '联系我们：',
    'शेयर करें',
  ])('does not take %j for one', (text) => {
    expect(endsAsSentence(text)).toBe(false);
  });
});

describe('endsAsProse', () => {
  it.each(['A sentence.', 'As shown below:', 'First clause;', 'Wie folgt：', '“Is it?”', 'Then…', 'كما يلي؛', '如下：'])(
    'takes %j for prose',
    (text) => {
      expect(endsAsProse(text)).toBe(true);
    },
  );

  it.each(['Kate Henshaw', 'Light a Wish by OGE Group', 'Photo: AFP', '(Image: Getty)', '“Untitled”'])(
    'does not take the caption %j for prose',
    (text) => {
      expect(endsAsProse(text)).toBe(false);
    },
  );
});

describe('termsOf in scripts written without spaces', () => {
  it('takes the words of a run, as the segmenter finds them', () => {
    expect(termsOf('相关阅读')).toEqual(['相关', '阅读']);
    expect(termsOf('iPhone15を買った').length).toBeGreaterThanOrEqual(3);
    expect(termsOf('港の防波堤の散歩道はベビーカーでも通れますか').length).toBeGreaterThan(6);
  });
});
