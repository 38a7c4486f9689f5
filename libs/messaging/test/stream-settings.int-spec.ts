import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { nanos } from '@nats-io/transport-node';
import { configureStreams, connectNats, ensureWorkQueue, streamSettings, type WorkQueueSpec } from '../src/index.js';

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const run = randomBytes(4).toString('hex').toUpperCase();

/** A queue of its own per test run and case, so runs sharing a NATS server never meet. */
const queueOf = (name: string): WorkQueueSpec => ({
  stream: `TEST_STREAMS_${run}_${name}`,
  subjects: [`test.${run}.${name}.work.>`],
  consumer: 'workers',
  deadLetterSubject: `test.${run}.${name}.dead`,
});

describe('JetStream streams follow the settings when made, and keep what an operator set', () => {
  let nc: NatsConnection;
  const made: string[] = [];

  beforeAll(async () => {
    nc = await connectNats({ url: NATS_URL, name: `stream-settings-test-${run}` });
  });

  afterEach(() => configureStreams({}));

  afterAll(async () => {
    const jsm = await jetstreamManager(nc);
    for (const name of made) await jsm.streams.delete(name).catch(() => undefined);
    await nc.close();
  });

  it('defaults to one replica and no size limit', () => {
    expect(streamSettings()).toEqual({ replicas: 1, maxBytes: -1 });
    expect(() => configureStreams({ replicas: 0 })).toThrow(/NATS_STREAM_REPLICAS/);
    expect(() => configureStreams({ maxBytes: 0 })).toThrow(/NATS_STREAM_MAX_BYTES/);
  });

  it('makes a new queue with the configured replicas and size limit, refusing new work when full', async () => {
    const queue = queueOf('NEW');
    made.push(queue.stream, `${queue.stream}_DEAD`);
    configureStreams({ replicas: 1, maxBytes: 8 * 1024 * 1024 });
    await ensureWorkQueue(nc, queue);
    const jsm = await jetstreamManager(nc);
    const work = (await jsm.streams.info(queue.stream)).config;
    expect(work).toMatchObject({ num_replicas: 1, max_bytes: 8 * 1024 * 1024, discard: 'new', retention: 'workqueue', storage: 'file' });
    expect((await jsm.streams.info(`${queue.stream}_DEAD`)).config).toMatchObject({ num_replicas: 1, max_bytes: 8 * 1024 * 1024 });
  });

  it("leaves an existing stream's limits and age as an operator set them, on every later start", async () => {
    const queue = queueOf('EDITED');
    made.push(queue.stream, `${queue.stream}_DEAD`);
    await ensureWorkQueue(nc, queue);
    const jsm = await jetstreamManager(nc);
    // The operator's edits (`nats stream edit`): a size cap on the queue, a longer dead letter age.
    await jsm.streams.update(queue.stream, { max_bytes: 4 * 1024 * 1024, max_msgs: 100_000 });
    await jsm.streams.update(`${queue.stream}_DEAD`, { max_age: nanos(30 * 24 * 3600 * 1000) });
    const before = (await jsm.streams.info(queue.stream)).config;

    // A later start with other settings: the existing streams are not touched.
    configureStreams({ replicas: 1, maxBytes: 64 * 1024 * 1024 });
    await ensureWorkQueue(nc, queue);
    await ensureWorkQueue(nc, queue);
    const after = (await jsm.streams.info(queue.stream)).config;
    expect(after).toEqual(before);
    expect(after).toMatchObject({ max_bytes: 4 * 1024 * 1024, max_msgs: 100_000, num_replicas: 1 });
    expect((await jsm.streams.info(`${queue.stream}_DEAD`)).config.max_age).toBe(nanos(30 * 24 * 3600 * 1000));
  });

  it('adds the subjects a newer version of a queue captures, and nothing else', async () => {
    const queue = queueOf('GROWN');
    made.push(queue.stream, `${queue.stream}_DEAD`);
    await ensureWorkQueue(nc, queue);
    const jsm = await jetstreamManager(nc);
    await jsm.streams.update(queue.stream, { max_msgs: 5000 });
    const grown = { ...queue, subjects: [...queue.subjects, `test.${run}.GROWN.more.>`] };
    await ensureWorkQueue(nc, grown);
    const config = (await jsm.streams.info(queue.stream)).config;
    expect(config.subjects).toEqual(grown.subjects);
    expect(config.max_msgs).toBe(5000);
  });
});
