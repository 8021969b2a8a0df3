// Reading the JSON request body within its limits (docs/api.md "Request": 64 KiB, 413; JSON only, 415; not JSON,
// 400 malformed_json). A request answered early must not leave its body unread: wrangler dev's
// runtime then fails the next request on the same kept-alive connection ("worker restarted
// mid-request"), and cancelling the stream does not prevent that, so the body is drained.
import { mediaType } from '../shared/content-type.js';
import { ApiError } from '../errors.js';
import { joinedBytes } from '../shared/bytes.js';

export const MAX_BODY_BYTES = 64 * 1024;
/** Past this much, an unwanted body is cancelled instead of drained (the connection is then lost). */
export const MAX_DRAIN_BYTES = 8 * 1024 * 1024;

async function drain(reader: ReadableStreamDefaultReader<Uint8Array>, budget: number): Promise<void> {
  let drained = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    drained += value.byteLength;
    if (drained > budget) {
      await reader.cancel();
      return;
    }
  }
}

/** Reads and drops an unread request body so the connection stays usable. Never throws. */
export async function discardBody(request: Request): Promise<void> {
  if (request.body === null || request.bodyUsed || request.body.locked) return;
  try {
    await drain(request.body.getReader(), MAX_DRAIN_BYTES);
  } catch {
    // The client went away or the stream errored: nothing left to release.
  }
}

export function isJsonContentType(header: string | undefined | null): boolean {
  const type = mediaType(header ?? undefined);
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}

async function readLimited(request: Request, limit: number): Promise<Uint8Array> {
  const declared = Number(request.headers.get('Content-Length') ?? NaN);
  if (Number.isFinite(declared) && declared > limit) {
    await discardBody(request);
    throw new ApiError('payload_too_large');
  }
  if (request.body === null) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await drain(reader, MAX_DRAIN_BYTES).catch(() => undefined);
      throw new ApiError('payload_too_large');
    }
    chunks.push(value);
  }
  return joinedBytes(chunks, size);
}

/**
 * The request body parsed as JSON.
 * @throws ApiError unsupported_media_type, payload_too_large or malformed_json.
 */
export async function readJsonBody(request: Request): Promise<unknown> {
  if (!isJsonContentType(request.headers.get('Content-Type'))) throw new ApiError('unsupported_media_type');
  const bytes = await readLimited(request, MAX_BODY_BYTES);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch (cause) {
    throw new ApiError('malformed_json', 'The request body is not valid UTF-8.', { cause });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (cause) {
    throw new ApiError('malformed_json', 'The request body is not valid JSON.', { cause });
  }
}
