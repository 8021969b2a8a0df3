// Types of ascii-only.mjs (a build script, plain JavaScript), for its unit tests.
export function asciiOnly(code: string): string;
