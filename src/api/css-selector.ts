// The Worker's check of a CSS selector field (wait_for_selector), before any browser work. css-tree's
// selector parser refuses what is not selector syntax ("div[", "a;b", ".1a", ",a"). It is not the
// final word, and must never be stricter than Chromium (docs/api.md "Waiting"): where CSS's own error
// recovery can still make a selector of what css-tree refuses, the Worker lets it through and the
// browser decides (browser/selector-check.ts, on the request's fresh page before the target is
// loaded). Those cases are an unclosed bracket, string or escape at the very end (CSS closes them at
// the end of input: Chromium takes "[a=b" and ":is(a") and the forgiving lists of :is() and :where()
// (Chromium takes ":is(a,,b)"). Pure: no Hono, no Workers APIs.
import parseSelector from 'css-tree/selector-parser';

export const MAX_SELECTOR_LENGTH = 1024;

interface ParseError {
  offset?: number;
}

/** Whether CSS error recovery may still make a selector of `selector` although css-tree refused it at `offset`. */
function browserMayAccept(selector: string, offset: number | undefined): boolean {
  const atEnd = offset !== undefined && offset >= selector.trimEnd().length;
  return atEnd || selector.endsWith('\\') || /:(?:is|where)\(/i.test(selector);
}

/** Why `selector` is not a CSS selector, or undefined when it is one (or the browser must decide). */
export function selectorProblem(selector: string): string | undefined {
  if (selector.trim() === '') return 'must not be empty';
  if (selector.length > MAX_SELECTOR_LENGTH) return `must be at most ${MAX_SELECTOR_LENGTH} characters`;
  try {
    parseSelector(selector, {
      onParseError: (error: ParseError) => {
        throw error;
      },
    });
    return undefined;
  } catch (error) {
    if (browserMayAccept(selector, (error as ParseError).offset)) return undefined;
    const reason = error instanceof Error ? error.message : String(error);
    return `is not a valid CSS selector (${reason})`;
  }
}
