import { AppError, ConflictError, NotFoundError } from '@platform/common';

const invalid = (field: string, message: string) => new AppError('validation_failed', 400, `Validation failed: ${field} ${message}`, [{ field, message }]);

/** The files feature's error codes; the global filter turns them into the error body. */
export const FileErrors = {
  notFound: () => new NotFoundError('File'),
  notMultipart: () => new AppError('unsupported_media_type', 415, 'Content-Type must be multipart/form-data with a file part named "file"'),
  malformedMultipart: (reason: string) => new AppError('malformed_multipart', 400, `Malformed multipart body: ${reason}`),
  aborted: () => new AppError('request_aborted', 400, 'Request aborted by the client'),
  tooLarge: (limit: number) => new AppError('payload_too_large', 413, `The file is larger than the limit of ${limit} bytes`),
  fileRequired: () => invalid('file', 'is required (one file part named "file")'),
  onlyOneFile: () => invalid('file', 'must be sent once'),
  notAFilePart: () => invalid('file', 'must be a file part (with a filename)'),
  unknownField: (field: string) => new AppError('validation_failed', 400, `Validation failed: ${field} is not allowed`, [{ field, message: 'is not allowed' }]),
  tooManyParts: () => new AppError('validation_failed', 400, 'Validation failed: too many parts in the form'),
  invalid,
  invalidIdempotencyKey: () => invalid('Idempotency-Key', 'must be 1-255 printable ASCII characters'),
  idempotencyMismatch: () => new ConflictError('idempotency_mismatch', 'This Idempotency-Key was used with a different upload in the last 24 hours'),
  rangeNotSatisfiable: (size: number) => new AppError('range_not_satisfiable', 416, `The range is outside the file (${size} bytes)`),
  contentMissing: () => new AppError('file_content_missing', 500, 'The stored content of this file is missing'),
  contentCorrupt: () => new AppError('file_content_corrupt', 500, 'The stored content of this file does not match its checksum'),
  tooLargeForMessage: (size: number, limit: number) => new AppError('file_too_large', 413, `The file has ${size} bytes; this call returns at most ${limit}`),
  invalidBase64: () => invalid('contentBase64', 'must be base64'),
};
