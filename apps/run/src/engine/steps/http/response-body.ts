import type { IncomingHttpHeaders } from 'node:http';
import type { ResponseType } from './http-request.input.js';

export const EXCERPT_BYTES = 1024;

/** The media type says JSON: `application/json`, `application/problem+json`, `text/json`, … */
export function isJsonContentType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const mediaType = contentType.split(';')[0].trim().toLowerCase();
  return mediaType === 'application/json' || mediaType === 'text/json' || mediaType.endsWith('+json');
}

export class UndecodableBody extends Error {}

/**
 * The output `body`: JSON when asked for (or, for `auto`, when the content type says so), text
 * in the declared charset, or base64 for binary content. An empty JSON body is `null`.
 */
export function decodeBody(raw: Buffer, headers: IncomingHttpHeaders, responseType: ResponseType): unknown {
  if (responseType === 'base64') return raw.toString('base64');
  const contentType = headers['content-type'];
  const wantsJson = responseType === 'json' || (responseType === 'auto' && isJsonContentType(contentType));
  const text = decodeText(raw, contentType);
  if (!wantsJson) return text;
  if (text.trim() === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    // `auto` trusted a header, not the caller: give the text rather than fail the step.
    if (responseType === 'auto') return text;
    throw new UndecodableBody(`the response body is not valid JSON (${(error as Error).message})`);
  }
}

/** At most EXCERPT_BYTES of the body as text, for error details. */
export function bodyExcerpt(raw: Buffer | undefined, headers: IncomingHttpHeaders): string {
  if (!raw || raw.length === 0) return '';
  const text = decodeText(raw.subarray(0, EXCERPT_BYTES), headers['content-type']);
  // A cut in the middle of a multi-byte character decodes to U+FFFD; drop it rather than show it.
  return raw.length > EXCERPT_BYTES ? text.replace(/\uFFFD$/, '') : text;
}

function decodeText(raw: Buffer, contentType: string | undefined): string {
  const charset = /;\s*charset="?([^";\s]+)"?/i.exec(contentType ?? '')?.[1];
  if (charset) {
    try {
      return new TextDecoder(charset).decode(raw);
    } catch {
      // An unknown label: fall back to UTF-8 below.
    }
  }
  return new TextDecoder('utf-8').decode(raw);
}

/** Response headers as a plain object with lower-case names (`set-cookie` stays a list). */
export function plainHeaders(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) out[name.toLowerCase()] = value;
  return out;
}
