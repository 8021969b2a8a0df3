// Text as one line: every run of white space (any Unicode space or line break) one space, none at the
// ends. How a plain-text value is written (a metadata field, the reason a PDF is refused, a formula's
// TeX) and how the main-content rules and the PDF conversion read text. The markdown serializer's
// text collapses HTML's white space only (src/markdown/text.ts): there a no-break space is content.

export const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();
