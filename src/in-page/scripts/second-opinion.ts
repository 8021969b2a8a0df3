// The in-page script that brings the second extractor (main-content/second-extractor.ts) into the
// read's world, for a read whose extract is questioned (page-script.ts): the read then resumes.
import { defuddleContent } from '../../main-content/second-extractor';
import { SECOND_EXTRACTOR_GLOBAL } from '../protocol';

export const run = (): null => {
  (globalThis as Record<string, unknown>)[SECOND_EXTRACTOR_GLOBAL] = defuddleContent;
  return null;
};
