// css-tree ships no types; this is the one entry the Worker uses (src/api/css-selector.ts).
declare module 'css-tree/selector-parser' {
  interface SelectorParseOptions {
    /** Called on each syntax error instead of recovering silently; may throw to stop the parse. */
    onParseError?: (error: Error & { offset?: number }) => void;
  }
  export default function parseSelector(source: string, options?: SelectorParseOptions): unknown;
}
