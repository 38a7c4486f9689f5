import { call, e2eEnvironment, eventually, withKey } from '@platform/testing';

const env = e2eEnvironment();
export type Json = Record<string, unknown>;
export const gw = (path: string, request?: Parameters<typeof call>[2]) => call<Json>(env.gatewayUrl, path, request);
/** `at(body, 'chunks.0.document_id')`: a value deep in a JSON answer. */
export const at = (value: unknown, path: string): unknown => path.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], value);

export async function createKb(key: string, body: Json = {}): Promise<string> {
  const res = await gw('/kb/knowledge-bases', { headers: withKey(key), body: { name: 'kb', ...body } });
  if (res.status !== 201) throw new Error(`knowledge base not created: ${res.status} ${res.text}`);
  return res.body.id as string;
}

export async function addDocument(key: string, kbId: string, body: Json): Promise<string> {
  const res = await gw(`/kb/knowledge-bases/${kbId}/documents`, { headers: withKey(key), body });
  if (res.status !== 202) throw new Error(`document not accepted: ${res.status} ${res.text}`);
  return res.body.id as string;
}

/** Runs `work` over `items` with at most `limit` at once. */
export async function inBatches<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await work(items[i]);
      }
    }),
  );
  return results;
}

/** Every document of the knowledge base, all pages. */
export async function allDocuments(key: string, kbId: string): Promise<Json[]> {
  const out: Json[] = [];
  let cursor: string | null = null;
  do {
    const res: { body: Json } = await gw(`/kb/knowledge-bases/${kbId}/documents?limit=200${cursor ? `&cursor=${cursor}` : ''}`, { headers: withKey(key) });
    out.push(...(res.body.data as Json[]));
    cursor = res.body.next_cursor as string | null;
  } while (cursor);
  return out;
}

export async function waitAllReady(key: string, kbId: string, count: number, timeoutMs = 120_000): Promise<Json[]> {
  return eventually(
    `${count} documents ready`,
    async () => {
      const docs = await allDocuments(key, kbId);
      const failed = docs.filter((d) => d.status === 'failed');
      if (failed.length) throw new Error(`documents failed: ${JSON.stringify(failed.map((d) => [d.name, d.error]))}`);
      return docs.length === count && docs.every((d) => d.status === 'ready') ? docs : undefined;
    },
    timeoutMs,
    250,
  );
}
