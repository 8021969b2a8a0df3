// Mozilla's Readability (Firefox's reader view), called the one way the extraction calls it, on the
// whole page and on the block around its title alone: its article comes back as a DOM node through
// the `serializer` option (no markup is written or parsed, which a Trusted Types page would refuse),
// with the classes the cleaning rules and the list test read.
import { Readability } from '@mozilla/readability';

export type ReadabilityArticle = NonNullable<ReturnType<Readability<Node>['parse']>>;

/** Readability's article in `doc`, which it takes apart; null when it finds none or throws. */
export function readabilityArticle(doc: Document): ReadabilityArticle | null {
  try {
    return new Readability<Node>(doc, { serializer: (node) => node, keepClasses: true }).parse();
  } catch {
    // A page that enforces Trusted Types refuses Readability's retry (it resets markup through
    // innerHTML): no article then, rather than no answer.
    return null;
  }
}
