// isDateLine (main-content/date-line.ts): what a main-content extract drops as a date line — a year with
// a clock, or a date standing alone — and what it keeps: sentences about dates, date ranges, lines
// that only hold a year.
import { describe, expect, it } from 'vitest';
import { isDateLine, isStamp } from '../../../src/main-content/date-line.js';

describe('isDateLine', () => {
  it.each([
    'Posted: Fri 6:45 PM, Feb 16, 2018  |',
    'Updated: Sat 8:31 PM, Feb 17, 2018',
    'PUBLISHED: 10:48, Tue, Nov 19, 2019 | UPDATED: 11:05, Tue, Nov 19, 2019',
    'Nov. 20, 2019 6:02 AM EST',
    'October 06, 2018',
    '13.11.2019, 23:06',
    'segunda-feira, 22 de janeiro de 2018 às 0:13',
    'Mara 2026-11-20 10:15',
    '20 November 2026',
    'November 19, 2019 | 4:20am | Updated November 19, 2019 | 9:32pm',
  ])('takes %j for a date line', (line) => {
    expect(isDateLine(line)).toBe(true);
  });

  it.each([
    '',
    'Most visitors arrive on the first of June 2026, when the lowest tides of the year fall in daylight.',
    '29 November 2018 | 20 January 2019 at the main hall',
    'The 2019 season',
    'Call 10:30 to book',
    '2018.04.05 ~ OPEN RUN at the theatre',
    'The museum opened on 12 May 2019 at 10:00 with a concert, a lecture, a market, and a parade through the old town.',
  ])('keeps %j', (line) => {
    expect(isDateLine(line)).toBe(false);
  });
});

describe('isStamp', () => {
  it("takes a date line with a clock for a post's stamp, and a bare date for none", () => {
    expect([isStamp('Mara 2026-11-20 10:15'), isStamp('Nov. 20, 2019 6:02 AM EST'), isStamp('October 06, 2018'), isStamp('10:15')]).toEqual(
      [true, true, false, false],
    );
  });
});

describe('isDateLine in scripts written without spaces', () => {
  it('does not take a post with its stamp for a date line: its sentence is many words', () => {
    expect(isDateLine('user1 Jan 10, 2026 10:15 AM 港の防波堤の散歩道はベビーカーでも通れますか？途中に階段はありますか？')).toBe(false);
    expect(isDateLine('2026年1月10日 10:15')).toBe(true);
  });
});
