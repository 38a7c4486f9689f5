import type { IncomingMessage } from 'node:http';

/**
 * A body the JSON parser left unread (a form, text, bytes), up to `limit` bytes. A larger one is
 * still read to its end and thrown away before `tooLarge()` is thrown. Answering while the rest is
 * arriving left it on the connection, where the gateway's pool sent its next request behind it:
 * this server read that request as more of the body and never answered it, so one visitor's
 * oversized form failed the next visitor's submission. Closing the connection instead loses the
 * answer itself (unread bytes turn the close into a reset). Past `discardUpTo` more bytes (more
 * than the gateway lets through) the connection is cut.
 */
export async function readUnparsedBody(req: IncomingMessage, limit: number, discardUpTo: number, tooLarge: () => Error): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= limit) chunks.push(chunk);
    else if (size > limit + discardUpTo) {
      req.socket.destroy();
      throw tooLarge();
    }
  }
  if (size > limit) throw tooLarge();
  return Buffer.concat(chunks);
}
