// The second extractor (second-opinion.ts): defuddle, run on the reader form. Its own bundle
// (in-page/scripts/second-opinion.ts), sent to the page only when a read asks for it.
import Defuddle from 'defuddle';
import type { Extractor } from './second-opinion';

/** defuddle's content of the reader form (it works on its own copy), as markup. */
export const defuddleContent: Extractor = (form, pageUrl) => {
  // defuddle reports what it skips (invalid JSON-LD, …) on the console: the page's console is not ours to fill.
  const { log, warn, error } = console;
  console.log = console.warn = console.error = () => {};
  try {
    return new Defuddle(form, { url: pageUrl }).parse().content;
  } finally {
    Object.assign(console, { log, warn, error });
  }
};
