import { connectNats, removeNamespaceStreams } from '@platform/messaging';

/**
 * After a platform that ran in its own NATS namespace has stopped: deletes that namespace's
 * streams, so test runs and benchmarks leave nothing behind on the shared server. Best effort: a
 * NATS that is gone by then is not the test's failure.
 */
export async function removeNatsNamespace(namespace: string, natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222'): Promise<void> {
  let nc;
  try {
    nc = await connectNats({ url: natsUrl, name: `cleanup-${namespace}` });
    await removeNamespaceStreams(nc, namespace);
  } catch (error) {
    process.stderr.write(`could not remove the streams of NATS namespace ${namespace}: ${(error as Error).message}\n`);
  } finally {
    await nc?.close();
  }
}
