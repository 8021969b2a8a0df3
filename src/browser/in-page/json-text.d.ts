// The preload bundles load JSON files as their text (scripts/build-page-script.mjs).
declare module '@duckduckgo/autoconsent/rules/compact-rules.json' {
  const text: string;
  export default text;
}
