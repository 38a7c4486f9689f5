import type { Request, Response } from 'express';
import type { Logger } from '@nestjs/common';
import { pipeline } from 'node:stream/promises';
import type { FileDownload } from './files.service.js';
import { FileErrors } from './files.errors.js';
import { attachmentDisposition } from './http-ranges.js';
import { ChecksumMismatchError, VerifyingStream } from './verifying-stream.js';

/**
 * Sends a download: 200 with the whole file (verified against its checksum while streaming; a
 * mismatch cuts the connection before the last bytes), 206 with a range, or 416.
 */
export function sendDownload(download: FileDownload, req: Request, res: Response, logger: Logger): void {
  const { file } = download;
  if (download.kind === 'unsatisfiable') {
    res.setHeader('Content-Range', `bytes */${file.size}`);
    throw FileErrors.rangeNotSatisfiable(file.size);
  }
  res.setHeader('Content-Type', file.content_type);
  res.setHeader('ETag', `"${file.checksum_sha256}"`);
  res.setHeader('Content-Disposition', attachmentDisposition(file.name));
  res.setHeader('Accept-Ranges', 'bytes');
  res.setHeader('Cache-Control', 'private, no-cache');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  if (download.kind === 'partial') {
    const { start, end } = download.range;
    res.status(206);
    res.setHeader('Content-Range', `bytes ${start}-${end}/${file.size}`);
    res.setHeader('Content-Length', String(end - start + 1));
  } else {
    res.status(200);
    res.setHeader('Content-Length', String(file.size));
  }
  if (req.method === 'HEAD') {
    download.stream.destroy();
    res.end();
    return;
  }
  const stages =
    download.kind === 'full' ? [download.stream, new VerifyingStream({ checksumSha256: file.checksum_sha256, size: file.size })] : [download.stream];
  pipeline([...stages, res]).catch((error: unknown) => {
    if (error instanceof ChecksumMismatchError) {
      logger.error(`file ${file.id}: download stopped, the stored object is corrupt: ${error.message}`);
    } else if ((error as NodeJS.ErrnoException).code !== 'ERR_STREAM_PREMATURE_CLOSE') {
      logger.warn(`file ${file.id}: download failed: ${String(error)}`);
    }
    // A client that went away is ERR_STREAM_PREMATURE_CLOSE: nothing to report.
    // pipeline has destroyed the response already: the client sees a cut connection, never a complete wrong body.
    res.destroy();
  });
}
