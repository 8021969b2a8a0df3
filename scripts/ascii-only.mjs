// Makes a built script ASCII-only (scripts/build-page-script.mjs). One character beyond Latin-1
// anywhere in a script makes the browser hold and compile all of it as two-byte text, and a
// document compiles the consent preload before its own scripts: the preload's few non-ASCII
// characters (in regular expressions of the package's) cost a fresh renderer 1 to 2 ms a document
// in probes (docs/consent.md).
// esbuild escapes them in strings but leaves regular expression literals as written; written as
// \uXXXX, each stands for the same character in strings, regular expressions, identifiers and the
// JSON of the consent rules' comment.

/** `code` with every non-ASCII UTF-16 unit written as a \uXXXX escape. */
export function asciiOnly(code) {
  return code.replace(/[\u0080-\uffff]/g, (char, at) => {
    // After an odd run of backslashes the character is itself escaped (`\é` in a regular
    // expression): `\\u00e9` would mean something else. No built script has one; fail loudly if one does.
    let backslashes = 0;
    while (code[at - 1 - backslashes] === '\\') backslashes++;
    if (backslashes % 2 === 1) throw new Error(`asciiOnly: an escaped non-ASCII character at ${at}`);
    return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}
