// The parts of a document a read keeps (docs/api.md "Selecting parts"): the elements include_selectors
// and exclude_selectors match in the document and its open shadow roots, found once per read so the
// walks that copy the page ask a set, not the selectors, at every element.
import { openShadowRoots } from './open-shadow-roots';
import type { PartSelection } from './protocol';

export interface SelectedParts {
  /** Elements to keep with everything inside them; null: the whole document. */
  included: ReadonlySet<Element> | null;
  /** Elements left out with everything inside them (exclusion applies first). */
  excluded: ReadonlySet<Element>;
  /** How many elements the include selectors matched, nested ones included (X-Selector-Matches). */
  matches: number;
}

function matching(roots: (Document | ShadowRoot)[], selectors: string[]): Set<Element> {
  const found = new Set<Element>();
  for (const root of roots) for (const selector of selectors) for (const element of root.querySelectorAll(selector)) found.add(element);
  return found;
}

/** What `selection` keeps of `doc`, or undefined when it keeps everything. */
export function selectParts(doc: Document, selection: PartSelection | undefined): SelectedParts | undefined {
  if (selection === undefined || doc.documentElement === null) return undefined;
  const roots = [doc, ...openShadowRoots(doc.documentElement)];
  const included = selection.include === undefined ? null : matching(roots, selection.include);
  const excluded = selection.exclude === undefined ? new Set<Element>() : matching(roots, selection.exclude);
  return { included, excluded, matches: included?.size ?? 0 };
}
