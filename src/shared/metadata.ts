// The page metadata of docs/api.md "Main content" (include_metadata): the fields, each a string or
// null, and how a value is written. Read in the page (src/in-page/metadata.ts) and from a PDF
// (src/pdf/metadata.ts), described in the OpenAPI document.
import { oneLine } from './one-line.js';

export const METADATA_FIELDS = [
  'title',
  'description',
  'language',
  'canonical_url',
  'site_name',
  'author',
  'published_time',
  'image',
] as const;

export type PageMetadata = Record<(typeof METADATA_FIELDS)[number], string | null>;

/** The metadata of a page that says nothing (an empty document): every field null. */
export const NO_METADATA: Readonly<PageMetadata> = Object.freeze(
  Object.fromEntries(METADATA_FIELDS.map((field) => [field, null])) as PageMetadata,
);

/** A field's value as it is written: a string as one line; null for anything else, or nothing left. */
export function metadataValue(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const text = oneLine(value);
  return text === '' ? null : text;
}
