import { describe, expect, it } from '@jest/globals';
import { TenantBatcher } from './tenant-batcher.js';

const A = { tenantId: '3f2b9c1e-8d4a-4f6b-9a7e-1c2d3e4f5a6b', environmentId: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d' };
const B = { tenantId: 'b1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d', environmentId: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d' };
const turn = () => new Promise((resolve) => setImmediate(resolve));

/** A batch function that records each batch and returns when the test releases it. */
function recorder() {
  const batches: Array<{ tenant: string; items: number[]; release: () => void }> = [];
  const run = (ctx: typeof A, items: number[]) =>
    new Promise<number[]>((resolve) => batches.push({ tenant: ctx.tenantId, items, release: () => resolve(items.map((i) => i * 10)) }));
  return { batches, run };
}

describe('TenantBatcher', () => {
  it('writes one turn of a context together and each context apart; each caller gets its own result', async () => {
    const { batches, run } = recorder();
    const batcher = new TenantBatcher(run);
    const results = [batcher.submit(A, 1), batcher.submit(B, 2), batcher.submit(A, 3)];
    await turn();
    expect(batches.map((b) => [b.tenant, b.items])).toEqual([
      [A.tenantId, [1, 3]],
      [B.tenantId, [2]],
    ]);
    batches.forEach((b) => b.release());
    expect(await Promise.all(results)).toEqual([10, 20, 30]);
  });

  it('without a limit, a later turn is a batch of its own at once', async () => {
    const { batches, run } = recorder();
    const batcher = new TenantBatcher(run);
    const first = batcher.submit(A, 1);
    await turn();
    const second = batcher.submit(A, 2);
    await turn();
    expect(batches.map((b) => b.items)).toEqual([[1], [2]]);
    batches.forEach((b) => b.release());
    expect(await Promise.all([first, second])).toEqual([10, 20]);
  });

  it('with inFlight 1, what a context writes while its batch is in the database waits and goes in one batch when it returns; another context is not held', async () => {
    const { batches, run } = recorder();
    const batcher = new TenantBatcher(run, { inFlight: 1 });
    const first = batcher.submit(A, 1);
    await turn();
    const waiting = [batcher.submit(A, 2), batcher.submit(A, 3)];
    await turn();
    const other = batcher.submit(B, 4);
    await turn();
    const later = batcher.submit(A, 5);
    await turn();
    expect(batches.map((b) => b.items)).toEqual([[1], [4]]);

    batches[0].release();
    expect(await first).toBe(10);
    await turn();
    expect(batches.map((b) => b.items)).toEqual([[1], [4], [2, 3, 5]]);
    batches[1].release();
    batches[2].release();
    expect(await Promise.all([...waiting, other, later])).toEqual([20, 30, 40, 50]);
  });

  it('a failed batch fails each of its callers, and the context goes on', async () => {
    let fail = true;
    const batcher = new TenantBatcher((_ctx, items: number[]) => (fail ? Promise.reject(new Error('down')) : Promise.resolve(items)), { inFlight: 1 });
    const failed = await Promise.allSettled([batcher.submit(A, 1), batcher.submit(A, 2)]);
    expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    expect(await batcher.submit(A, 3)).toBe(3);
  });

  it('sends 64 at once without waiting for the turn to end', async () => {
    const { batches, run } = recorder();
    const batcher = new TenantBatcher(run);
    const results = Array.from({ length: 65 }, (_, i) => batcher.submit(A, i));
    expect(batches.map((b) => b.items.length)).toEqual([64]);
    await turn();
    expect(batches.map((b) => b.items.length)).toEqual([64, 1]);
    batches.forEach((b) => b.release());
    expect((await Promise.all(results)).length).toBe(65);
  });
});
