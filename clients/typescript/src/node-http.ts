import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { FetchLike, ResponseLike } from './transport.js';

function answer(res: IncomingMessage, text: string): ResponseLike {
  const status = res.statusCode ?? 0;
  return {
    ok: status >= 200 && status < 300,
    status,
    statusText: res.statusMessage ?? '',
    headers: {
      get: (name) => {
        const value = res.headers[name.toLowerCase()];
        return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
      },
    },
    text: () => Promise.resolve(text),
  };
}

/**
 * The SDK's requests over `node:http` and `node:https`: the same answers as global fetch,
 * without loading fetch's implementation, which costs a short-lived process (a command line)
 * tens of milliseconds at its first request. Answers are read whole: the platform's are JSON.
 */
export const nodeHttp: FetchLike = async (url, init) => {
  // node:https (and TLS) is loaded only for an https URL.
  const send = url.protocol === 'https:' ? (await import('node:https')).request : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(url, { method: init.method, headers: init.headers, signal: init.signal }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve(answer(res, Buffer.concat(chunks).toString('utf8'))));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(init.body);
  });
};
