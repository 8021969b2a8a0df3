// Text as one line: every run of white space (any Unicode space or line break) one space, none at the
// ends. How a plain-text value is written (a metadata field, the reason a PDF is refused) and how the
// main-content rules read an element's text. The markdown serializer collapses HTML's white space
// only (src/markdown/text.ts): in markdown a no-break space is content.

export const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();
