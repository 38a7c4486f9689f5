import type { NatsConnection } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { streamPrefix } from '../namespace.js';

/**
 * Deletes every JetStream stream of a namespace: a test run's or a benchmark's platform, once it
 * has stopped, so their streams do not pile up on a server they share. Returns how many it deleted.
 */
export async function removeNamespaceStreams(nc: NatsConnection, namespace: string): Promise<number> {
  if (!namespace) throw new Error('refusing to remove the streams of the unnamespaced platform');
  const prefix = streamPrefix(namespace);
  const jsm = await jetstreamManager(nc);
  const doomed: string[] = [];
  for await (const info of jsm.streams.list()) {
    if (info.config.name.startsWith(prefix)) doomed.push(info.config.name);
  }
  for (const name of doomed) await jsm.streams.delete(name);
  return doomed.length;
}
