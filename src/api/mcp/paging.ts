// Paging long content for the MCP tool: an agent's context is small, so the tool returns at most
// `max_length` characters from `start_index` and ends a cut part with a line naming the next
// `start_index`. Characters are UTF-16 code units (as JavaScript and JSON count them); a cut never
// splits a surrogate pair. Pure: no Hono, no MCP SDK.
import { ApiError } from '../../errors.js';

export const DEFAULT_MAX_LENGTH = 20_000;

export interface ContentPart {
  /** The part itself, followed by the continuation line when more is left. */
  text: string;
  /** Where the next part starts; undefined when this part reaches the end. */
  nextIndex?: number;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** The line that ends a cut part; agents read it, tests strip it. */
export function continuationLine(nextIndex: number, total: number): string {
  return `[Content cut at character ${nextIndex} of ${total}. To read on, call fetch_page again with the same arguments and start_index ${nextIndex}.]`;
}

/**
 * The part of `content` from `startIndex`, at most `maxLength` characters long.
 * @throws ApiError invalid_request when `startIndex` lies past the end of a non-empty content.
 */
export function contentPart(content: string, startIndex: number, maxLength: number): ContentPart {
  const total = content.length;
  if (startIndex > 0 && startIndex >= total) {
    throw new ApiError('invalid_request', 'The request has invalid fields.', {
      details: [{ field: 'start_index', message: `is past the end of the content (${total} characters)` }],
    });
  }
  let end = Math.min(total, startIndex + maxLength);
  // Keep a surrogate pair whole: end before it, or after it when it alone is the whole part.
  if (end < total && isHighSurrogate(content.charCodeAt(end - 1))) end += end - 1 > startIndex ? -1 : 1;
  const part = content.slice(startIndex, end);
  if (end >= total) return { text: part };
  return { text: `${part}\n\n${continuationLine(end, total)}`, nextIndex: end };
}
