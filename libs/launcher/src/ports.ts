import { createServer } from 'node:net';

/** Ports this process has handed out: the OS may offer a just-released port again. */
const handedOut = new Set<number>();

function askTheOs(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolvePort(address.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * A port the OS says is free now, and never one this process handed out before: two services
 * given the same port would have the second fail to listen while its health check is answered
 * by the first. Tests start their processes on these, never on the defaults.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = await askTheOs();
    if (!handedOut.has(port)) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error('no free port found that was not handed out already');
}
