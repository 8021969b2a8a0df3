// The consent preload's rule set, a module the build makes from the package's rules
// (scripts/build-page-script.mjs, scripts/consent-rule-split.mjs).
declare module 'page-fetch:consent-rules' {
  /** A function whose source holds, in a comment, the JSON of the rule set without its site rules (PreloadBase). */
  export function rulesSource(): unknown;
  /** A function whose source holds, in a comment, the JSON of the site rules' texts and the base's detection probes (PreloadGate). */
  export function gateSource(): unknown;
}
