import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Controller, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern, Payload, RpcException, Transport, type MicroserviceOptions } from '@nestjs/microservices';
import type { INestMicroservice } from '@nestjs/common';
import { jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { IsInt } from 'class-validator';
import { currentRequestContext, runInRequestContext } from '@platform/common';
import {
  Bus,
  BusError,
  configureNamespace,
  connectNats,
  downstreamRefusal,
  enqueueWork,
  namespaced,
  ensureWorkQueue,
  publishRefusal,
  removeNamespaceStreams,
  startWorker,
  streamPrefix,
  TenantPayload,
  type Envelope,
  type TenantMessage,
  type RequestSubject,
  type WorkQueueSpec,
} from '../src/index.js';

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';

class CountItem {
  @IsInt()
  n!: number;
}
const run = randomBytes(4).toString('hex');
// Subjects unique to this run, so parallel runs on one NATS server never answer each other.
const ECHO = `test.${run}.echo.ask` as RequestSubject;
const FAIL = `test.${run}.fail.ask` as RequestSubject;
const SLOW = `test.${run}.slow.ask` as RequestSubject;
const TYPED = `test.${run}.typed.ask` as RequestSubject;
const TENANT = { tenantId: '5b7f0bde-4b5e-4b55-9a39-6c1c8c1f3f11', environmentId: '0b7f0bde-4b5e-4b55-9a39-6c1c8c1f3f12' };

@Controller()
class TestHandler {
  @MessagePattern(ECHO)
  echo(@Payload() message: Envelope<{ text: string }>) {
    return { text: message.data.text.toUpperCase(), tenant: message.context.tenantId, requestId: message.context.requestId };
  }

  @MessagePattern(FAIL)
  fail(): never {
    throw new RpcException({ code: 'key_not_found', message: 'No such key', status: 404 });
  }

  @MessagePattern(TYPED)
  typed(@TenantPayload(CountItem) message: TenantMessage<CountItem>) {
    return { n: message.body.n, isInstance: message.body instanceof CountItem, tenant: message.tenant, requestId: message.context.requestId };
  }

  @MessagePattern(SLOW)
  async slow() {
    await new Promise((r) => setTimeout(r, 500));
    return { late: true };
  }
}

@Module({ controllers: [TestHandler] })
class TestModule {}

describe('Bus over real NATS against a NestJS microservice', () => {
  let microservice: INestMicroservice;
  let nc: NatsConnection;
  let bus: Bus;

  beforeAll(async () => {
    microservice = await NestFactory.createMicroservice<MicroserviceOptions>(TestModule, {
      transport: Transport.NATS,
      options: { servers: NATS_URL, queue: `test-${run}` },
      logger: false,
    });
    await microservice.listen();
    nc = await connectNats({ url: NATS_URL, name: `bus-test-${run}` });
    bus = new Bus(nc);
  });

  afterAll(async () => {
    await nc?.close();
    await microservice?.close();
  });

  it('carries the payload and the context envelope both ways', async () => {
    const context = { requestId: 'req-1', tenantId: '5b7f0bde-4b5e-4b55-9a39-6c1c8c1f3f11' };
    const answer = await bus.request(ECHO, { text: 'hello' } as never, context);
    expect(answer).toEqual({ text: 'HELLO', tenant: context.tenantId, requestId: 'req-1' });
  });

  it('@TenantPayload hands the handler the tenant and the validated body', async () => {
    const answer = await bus.request(TYPED, { n: 3 } as never, { requestId: 'req-typed', ...TENANT, scopeId: null });
    expect(answer).toEqual({ n: 3, isInstance: true, tenant: { ...TENANT, scopeId: null }, requestId: 'req-typed' });
  });

  it('@TenantPayload refuses a message without a tenant, and a body that breaks the rules, naming the field', async () => {
    const noTenant = await bus.request(TYPED, { n: 3 } as never, { requestId: 'r' }).catch((e: unknown) => e);
    expect(noTenant).toMatchObject({ remote: { code: 'tenant_required', status: 400 } });
    const bad = await bus.request(TYPED, { n: 'three', extra: 1 } as never, { requestId: 'r', ...TENANT }).catch((e: unknown) => e);
    expect(bad).toMatchObject({ remote: { code: 'validation_failed', status: 400 } });
    expect((bad as BusError).remote?.message).toMatch(/n must be an integer/);
    expect((bad as BusError).remote?.message).toMatch(/extra is not allowed|property extra should not exist/);
    let deep: unknown = 1;
    for (let i = 0; i < 150; i++) deep = [deep];
    const tooDeep = await bus.request(TYPED, { n: deep } as never, { requestId: 'r', ...TENANT }).catch((e: unknown) => e);
    expect(tooDeep).toMatchObject({ remote: { code: 'validation_failed', status: 400 } });
  });

  it('turns a handler error into a typed remote error', async () => {
    const error = await bus.request(FAIL, {}, { requestId: 'r' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BusError);
    expect(error).toMatchObject({ code: 'remote', remote: { code: 'key_not_found', status: 404, message: 'No such key' } });
  });

  it('refuses a request larger than the server takes with a 413-class error, without sending it, and keeps the connection', async () => {
    expect(bus.maxPayload).toBe(nc.info?.max_payload);
    const error = await bus.request(ECHO, { text: 'x'.repeat(bus.maxPayload) } as never, { requestId: 'r' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BusError);
    expect(error).toMatchObject({ code: 'too_large', remote: { code: 'input_too_large', status: 413 } });
    expect(downstreamRefusal(error)).toMatchObject({ status: 413, code: 'input_too_large' });
    expect(await bus.request(ECHO, { text: 'still here' } as never, { requestId: 'r' })).toMatchObject({ text: 'STILL HERE' });
  });

  it('times out a slow handler', async () => {
    const error = await bus.request(SLOW, {}, { requestId: 'r' }, { timeoutMs: 100 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'timeout' });
  });

  it('says unavailable at once when nobody subscribes', async () => {
    const started = Date.now();
    // With a 60 s time-out, only an immediate 'no responders' answers within the bound.
    const error = await bus.request(`test.${run}.nobody.ask` as RequestSubject, {}, { requestId: 'r' }, { timeoutMs: 60_000 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'unavailable' });
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('fans an event out to every subscriber', async () => {
    const subject = `test.${run}.keys.revoked`;
    const seen: string[] = [];
    const subs = ['one', 'two'].map((name) =>
      bus.subscribeAll(subject as never, (event) => seen.push(`${name}:${(event.data as unknown as { id: string }).id}`)),
    );
    await nc.flush();
    bus.emit(subject as never, { id: 'k1' } as never, { requestId: 'r' });
    await nc.flush();
    await new Promise((r) => setTimeout(r, 100));
    subs.forEach((s) => s.unsubscribe());
    expect(seen.sort()).toEqual(['one:k1', 'two:k1']);
  });
});

describe('JetStream work queue', () => {
  let nc: NatsConnection;
  const spec: WorkQueueSpec = {
    stream: `TEST_WORK_${run}`,
    subjects: [`test.${run}.work.>`],
    consumer: 'workers',
    maxDeliver: 2,
    ackWaitMs: 5000,
    deadLetterSubject: `test.${run}.dead`,
  };

  beforeAll(async () => {
    nc = await connectNats({ url: NATS_URL, name: `wq-test-${run}` });
    await ensureWorkQueue(nc, spec);
    await ensureWorkQueue(nc, spec); // idempotent
  });

  afterAll(async () => {
    const jsm = await jetstreamManager(nc);
    await jsm.streams.delete(spec.stream).catch(() => undefined);
    await jsm.streams.delete(`${spec.stream}_DEAD`).catch(() => undefined);
    await nc.close();
  });

  it('delivers each item once, and a duplicate publish with the same id is dropped', async () => {
    const seen: number[] = [];
    const worker = await startWorker<{ n: number }>(nc, spec, (item) => {
      seen.push(item.data.n);
      return { ack: true };
    });
    for (let n = 0; n < 20; n++) await enqueueWork(nc, `test.${run}.work.ok`, { n }, `ok-${n}`);
    await enqueueWork(nc, `test.${run}.work.ok`, { n: 0 }, 'ok-0');
    const deadline = Date.now() + 5000;
    while (seen.length < 20 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 200));
    await worker.stop();
    expect(seen.sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });

  it('refuses a publish no stream captures, at once and naming the subject', async () => {
    const started = Date.now();
    const error = await enqueueWork(nc, `test.${run}.uncaptured`, { n: 1 }, 'x-1').catch((e: unknown) => e);
    // The message is the 'no responders' answer's, not a time-out's; the bound rules out waiting for the ack time-out.
    expect((error as Error).message).toBe(`no JetStream stream captures ${namespaced(`test.${run}.uncaptured`)}`);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('refuses a durable publish over max_payload before sending it, as a refusal (413): an outbox records it instead of retrying', async () => {
    const error = await enqueueWork(nc, `test.${run}.work.ok`, { text: 'x'.repeat(nc.info!.max_payload) }, 'big-1').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'too_large', remote: { code: 'input_too_large', status: 413 } });
    expect(publishRefusal(error)).toMatch(/over the \d+ bytes a message may carry \(NATS max_payload\)/);
    expect(nc.isClosed()).toBe(false);
  });

  it("takes a stream's 4xx (over its max_msg_size) as a refusal, and no stream or a closed connection as an outage", async () => {
    const jsm = await jetstreamManager(nc);
    const small = `TEST_SMALL_${run}`;
    await jsm.streams.add({ name: small, subjects: [`test.${run}.small`], max_msg_size: 64 });
    try {
      const refused = await enqueueWork(nc, `test.${run}.small`, { text: 'x'.repeat(200) }, 's-1').catch((e: unknown) => e);
      expect(publishRefusal(refused)).toMatch(/^JetStream refused .*\(4\d\d\)$/);
    } finally {
      await jsm.streams.delete(small);
    }
    const uncaptured = await enqueueWork(nc, `test.${run}.uncaptured`, { n: 1 }, 'x-2').catch((e: unknown) => e);
    expect(publishRefusal(uncaptured)).toBeUndefined();
    const closed = await connectNats({ url: NATS_URL, name: `wq-closed-${run}` });
    await closed.close();
    const down = await enqueueWork(closed, `test.${run}.work.ok`, { n: 1 }, 'x-3').catch((e: unknown) => e);
    expect(down).toBeInstanceOf(Error);
    expect(publishRefusal(down)).toBeUndefined();
  });

  it('retries a failing item with backoff, then dead-letters it', async () => {
    const dead: { data: string; error: string; deliveries: number }[] = [];
    const sub = nc.subscribe(spec.deadLetterSubject, {
      callback: (_e, m) => {
        dead.push(m.json());
      },
    });
    const attempts: number[] = [];
    const worker = await startWorker<{ n: number }>(nc, spec, (item) => {
      attempts.push(item.deliveryCount);
      throw new Error('boom');
    });
    await enqueueWork(nc, `test.${run}.work.bad`, { n: 99 });
    const deadline = Date.now() + 8000;
    while (dead.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await worker.stop();
    sub.unsubscribe();
    expect(attempts).toEqual([1, 2]);
    expect(dead).toHaveLength(1);
    expect(dead[0]).toMatchObject({ subject: `test.${run}.work.bad`, error: 'boom', deliveries: 2 });
    expect(JSON.parse(dead[0].data)).toMatchObject({ context: { requestId: expect.any(String) }, data: { n: 99 } });
    const info = await (await jetstreamManager(nc)).streams.info(spec.stream);
    expect(info.state.messages).toBe(0);
  });
});

describe('typed work queue items', () => {
  let nc: NatsConnection;
  const spec: WorkQueueSpec = {
    stream: `TEST_TYPED_${run}`,
    subjects: [`test.${run}.typed.>`],
    consumer: 'workers',
    maxDeliver: 5,
    ackWaitMs: 5000,
    deadLetterSubject: `test.${run}.typed-dead`,
    payload: CountItem,
  };

  beforeAll(async () => {
    nc = await connectNats({ url: NATS_URL, name: `wq-typed-${run}` });
    await ensureWorkQueue(nc, spec);
  });

  afterAll(async () => {
    const jsm = await jetstreamManager(nc);
    await jsm.streams.delete(spec.stream).catch(() => undefined);
    await jsm.streams.delete(`${spec.stream}_DEAD`).catch(() => undefined);
    await nc.close();
  });

  it("hands the handler the enqueuing request's context, and runs it in that context", async () => {
    const seen: { n: number; requestId: string; actor?: string; current?: string }[] = [];
    const worker = await startWorker<CountItem>(nc, spec, (item) => {
      seen.push({ n: item.data.n, requestId: item.context.requestId, actor: item.context.actor, current: currentRequestContext()?.requestId });
      return { ack: true };
    });
    await runInRequestContext({ requestId: `req-${run}`, actor: 'key-1' }, () => enqueueWork(nc, `test.${run}.typed.ok`, { n: 7 }));
    const deadline = Date.now() + 5000;
    while (!seen.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await worker.stop();
    expect(seen).toEqual([{ n: 7, requestId: `req-${run}`, actor: 'key-1', current: `req-${run}` }]);
  });

  it('dead-letters an item that fails its payload rules at once, without retries', async () => {
    const dead: { error: string; deliveries: number }[] = [];
    const sub = nc.subscribe(spec.deadLetterSubject, {
      callback: (_e, m) => {
        dead.push(m.json());
      },
    });
    let handled = 0;
    const worker = await startWorker<CountItem>(nc, spec, () => {
      handled++;
      return { ack: true };
    });
    await enqueueWork(nc, `test.${run}.typed.bad`, { n: 'seven' });
    const deadline = Date.now() + 5000;
    while (!dead.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await worker.stop();
    sub.unsubscribe();
    expect(handled).toBe(0);
    expect(dead).toHaveLength(1);
    expect(dead[0].deliveries).toBe(1);
    expect(dead[0].error).toMatch(/n must be an integer/);
  });
});

describe("removing a namespace's streams", () => {
  it('deletes every stream of that namespace and leaves the others', async () => {
    const nc = await connectNats({ url: NATS_URL, name: `ns-cleanup-${run}` });
    const spec: WorkQueueSpec = { stream: 'CLEANUP_WORK', subjects: ['cleanup.work.>'], consumer: 'workers', deadLetterSubject: 'cleanup.dead' };
    const [gone, kept] = [`gone-${run}`, `kept-${run}`];
    try {
      for (const namespace of [gone, kept]) {
        configureNamespace(namespace);
        await ensureWorkQueue(nc, spec);
      }
      configureNamespace('');
      expect(await removeNamespaceStreams(nc, gone)).toBe(2); // the queue and its dead letters
      const jsm = await jetstreamManager(nc);
      const names: string[] = [];
      for await (const info of jsm.streams.list()) names.push(info.config.name);
      expect(names.filter((n) => n.startsWith(streamPrefix(gone)))).toEqual([]);
      expect(names.filter((n) => n.startsWith(streamPrefix(kept))).sort()).toEqual([
        `${streamPrefix(kept)}CLEANUP_WORK`,
        `${streamPrefix(kept)}CLEANUP_WORK_DEAD`,
      ]);
      await expect(removeNamespaceStreams(nc, '')).rejects.toThrow(/unnamespaced/);
    } finally {
      configureNamespace('');
      await removeNamespaceStreams(nc, kept);
      await nc.close();
    }
  });
});
