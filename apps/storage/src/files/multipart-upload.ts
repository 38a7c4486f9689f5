import busboy from 'busboy';
import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { findUnstorableText, unstorableTextError } from '@platform/common';
import { FileErrors } from './files.errors.js';

/** Form fields besides the file; each is validated as it arrives so a bad one stops the upload early. */
export interface UploadFields {
  name?: string;
  metadata?: Record<string, unknown>;
}

export interface ReceivedUpload<T> {
  fields: UploadFields;
  /** The file part's filename, the name when no `name` field is sent. */
  filename?: string;
  /** What the client said the file is; kept for reference, never trusted. */
  declaredType?: string;
  /** What the sink made of the file stream. */
  stored: T;
}

/** Consumes the file part (stores or hashes it); must reject if the stream fails, leaving nothing behind. */
export type FileSink<T> = (file: Readable) => Promise<T>;

export const NAME_MAX_LENGTH = 255;
export const METADATA_MAX_BYTES = 16 * 1024;
const FIELD_MAX_BYTES = 64 * 1024;
// Control characters are refused in names: they are what this pattern is for.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

export function isMultipartFormData(contentType: string | undefined): boolean {
  return /^multipart\/form-data\s*(;|$)/i.test(contentType ?? '');
}

/** Why a file name is refused, or undefined. Names are labels (slashes allowed, for folders by prefix), not paths. */
export function fileNameProblem(name: string): string | undefined {
  if (name.trim() === '') return 'must not be empty';
  if ([...name].length > NAME_MAX_LENGTH) return `must be at most ${NAME_MAX_LENGTH} characters`;
  if (CONTROL.test(name)) return 'must not contain control characters';
  return undefined;
}

function parseMetadata(value: string): Record<string, unknown> {
  if (Buffer.byteLength(value) > METADATA_MAX_BYTES) throw FileErrors.invalid('metadata', `must be at most ${METADATA_MAX_BYTES} bytes`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw FileErrors.invalid('metadata', 'must be a JSON object');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw FileErrors.invalid('metadata', 'must be a JSON object');
  // Stored as jsonb, which cannot hold NUL or an unpaired surrogate; the part is no JSON body, so no interceptor saw it.
  const unstorable = findUnstorableText(parsed);
  if (unstorable) throw unstorableTextError({ ...unstorable, path: ['metadata', ...unstorable.path] }, 'body');
  return parsed as Record<string, unknown>;
}

/**
 * Streams a multipart/form-data request: the one `file` part goes to `sink` as it arrives (never
 * buffered), `name` and `metadata` fields are collected, anything else is refused. The file size
 * limit is enforced while streaming. On any failure the parser stops, the rest of the request is
 * discarded (so the client still reads the answer), and the promise rejects only after the sink
 * has settled, i.e. after a partial object has been cleaned up.
 */
export function receiveUpload<T>(req: IncomingMessage, fileSizeLimit: number, sink: FileSink<T>): Promise<ReceivedUpload<T>> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        defParamCharset: 'utf8',
        limits: { fileSize: fileSizeLimit + 1, fieldSize: FIELD_MAX_BYTES, fields: 8, parts: 16, headerPairs: 64 },
      });
    } catch (error) {
      req.resume();
      reject(FileErrors.malformedMultipart((error as Error).message));
      return;
    }
    const fields: UploadFields = {};
    let filename: string | undefined;
    let declaredType: string | undefined;
    let stored: Promise<T> | undefined;
    let failure: Error | undefined;

    const fail = (error: Error) => {
      if (failure) return;
      failure = error;
      // Torn down on the next tick: busboy emits its events from inside its parser and touches
      // the file stream again after 'limit', so destroying it synchronously would crash it.
      process.nextTick(() => {
        req.unpipe(parser);
        // Destroying the parser destroys a file stream in progress: the sink rejects and cleans up.
        parser.destroy(error);
        // Discard the rest so the client reads the answer, but not forever: past another limit's worth, hang up.
        let drained = 0;
        req.on('data', (chunk: Buffer) => {
          drained += chunk.length;
          if (drained > fileSizeLimit) req.destroy();
        });
        req.resume();
        const settled = stored ?? Promise.resolve();
        settled.then(
          () => reject(error),
          () => reject(error),
        );
      });
    };
    const skip = (stream: Readable) => {
      stream.on('error', () => undefined);
      stream.resume();
    };

    parser.on('file', (field, stream, info) => {
      if (failure) return skip(stream);
      if (field !== 'file') {
        skip(stream);
        return fail(FileErrors.unknownField(field));
      }
      if (stored) {
        skip(stream);
        return fail(FileErrors.onlyOneFile());
      }
      filename = info.filename;
      declaredType = info.mimeType;
      // busboy reports 'limit' when a file reaches its limit; one byte more tells "over" from "exactly".
      stream.once('limit', () => {
        // The sink must fail even if the part ends in the same chunk: nothing truncated is kept.
        const error = FileErrors.tooLarge(fileSizeLimit);
        stream.destroy(error);
        fail(error);
      });
      stored = sink(stream);
      stored.catch((error: unknown) => fail(error instanceof Error ? error : new Error(String(error))));
    });

    parser.on('field', (field, value, info) => {
      if (failure) return;
      try {
        if (field === 'file') throw FileErrors.notAFilePart();
        if (field !== 'name' && field !== 'metadata') throw FileErrors.unknownField(field);
        if (fields[field] !== undefined) throw FileErrors.invalid(field, 'must be sent once');
        if (info.valueTruncated) throw FileErrors.invalid(field, `must be at most ${FIELD_MAX_BYTES} bytes`);
        if (field === 'name') {
          const problem = fileNameProblem(value);
          if (problem) throw FileErrors.invalid('name', problem);
          fields.name = value;
        } else {
          fields.metadata = parseMetadata(value);
        }
      } catch (error) {
        fail(error as Error);
      }
    });

    parser.on('partsLimit', () => fail(FileErrors.tooManyParts()));
    parser.on('fieldsLimit', () => fail(FileErrors.tooManyParts()));
    parser.on('error', (error: Error) => fail(FileErrors.malformedMultipart(error.message)));
    parser.on('close', () => {
      if (failure) return;
      if (!stored) return fail(FileErrors.fileRequired());
      stored.then(
        (result) => {
          if (!failure) resolve({ fields, filename, declaredType, stored: result });
        },
        () => undefined,
      );
    });
    req.on('error', () => fail(FileErrors.aborted()));
    req.on('close', () => {
      if (!req.complete) fail(FileErrors.aborted());
    });
    req.pipe(parser);
  });
}
