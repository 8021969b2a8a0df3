// The page metadata of docs/api.md "Main content" (include_metadata): the fields, each a string or
// null. Read in the page (src/in-page/metadata.ts), described in the OpenAPI document.

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
