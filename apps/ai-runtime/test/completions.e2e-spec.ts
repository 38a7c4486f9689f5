import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SecretWatch, call, createTenant, e2eEnvironment, withKey, type TestTenant } from '@platform/testing';
import { OpenAiStandIn } from './openai-stand-in.js';

const env = e2eEnvironment();
type Json = Record<string, unknown>;
/** `at(body, 'message.tool_calls.0.id')`: a value deep in a JSON answer. */
const at = (value: unknown, path: string): unknown => path.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], value);
const gw = (path: string, request?: Parameters<typeof call>[2]) => call<Json>(env.gatewayUrl, path, request);

describe('AI runtime: providers, generate, chat, embeddings', () => {
  let tenant: TestTenant;
  const standIn = new OpenAiStandIn();
  const key = () => withKey(tenant.test_key);
  let provider: string;
  const watch = new SecretWatch();
  const [apiKey] = watch.add(`sk-test-${randomUUID()}`);

  beforeAll(async () => {
    await standIn.start();
    tenant = await createTenant(env.gatewayUrl, env.adminToken, `ai-${randomUUID().slice(0, 8)}`);
    provider = `standin-${randomUUID().slice(0, 6)}`;
    const created = await gw('/ai/providers', {
      headers: key(),
      body: {
        name: provider,
        base_url: standIn.url,
        api_key: apiKey,
        models: ['echo', 'fail', 'limited', 'slow', 'tools'].map((id) => ({ id, kind: 'chat' })).concat([{ id: 'embed', kind: 'embedding' }]),
      },
    });
    expect(created.status).toBe(201);
    expect(created.body.has_api_key).toBe(true);
    expect(JSON.stringify(created.body)).not.toContain(apiKey);
  });

  afterAll(async () => {
    await standIn.stop();
    // Every answer of this suite, and every log line of the platform: the provider key is in none.
    expect(await watch.leaks()).toEqual([]);
  });

  it('lists the local models and the configured ones', async () => {
    const models = await gw('/ai/models', { headers: key() });
    expect(models.status).toBe(200);
    const ids = (models.body.data as Json[]).map((m) => m.id as string);
    expect(ids).toEqual(expect.arrayContaining(['local/extractive-summary', 'local/hash-embedding-384', `${provider}/echo`, `${provider}/embed`]));
    expect(models.body.next_cursor).toBeNull();
    // Paginated like every list (issue 28): by id, `limit` honoured, the cursor reads on to the end.
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await gw(`/ai/models?limit=1${cursor ? `&cursor=${cursor}` : ''}`, { headers: key() });
      expect(page.status).toBe(200);
      expect((page.body.data as Json[]).length).toBe(1);
      paged.push(...(page.body.data as Json[]).map((m) => m.id as string));
      cursor = page.body.next_cursor as string | null;
    } while (cursor);
    expect(paged).toEqual([...ids].sort());
    expect((await gw('/ai/models?limit=500', { headers: key() })).status).toBe(400);
  });

  it('generates through the provider with the sealed key, and answers usage', async () => {
    const res = await gw('/ai/generate', { headers: key(), body: { model: `${provider}/echo`, prompt: 'hello there', system: 'be brief', max_tokens: 20 } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      model: `${provider}/echo`,
      text: 'echo: hello there',
      finish_reason: 'stop',
      usage: { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 },
    });
    const seen = standIn.seen[standIn.seen.length - 1];
    expect(seen.headers.authorization).toBe(`Bearer ${apiKey}`);
    expect(seen.body).toMatchObject({
      model: 'echo',
      max_tokens: 20,
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'hello there' },
      ],
    });
  });

  it('chats with tools: the tool call comes back, then the tool result is answered', async () => {
    const tools = [{ type: 'function', function: { name: 'lookup', description: 'Look a thing up', parameters: { type: 'object' } } }];
    const first = await gw('/ai/chat', { headers: key(), body: { model: `${provider}/tools`, messages: [{ role: 'user', content: 'find x' }], tools } });
    expect(first.status).toBe(200);
    expect(first.body.finish_reason).toBe('tool_calls');
    const toolCall = at(first.body, 'message.tool_calls.0') as Json;
    expect(toolCall.function).toEqual({ name: 'lookup', arguments: '{"x":1}' });
    const second = await gw('/ai/chat', {
      headers: key(),
      body: {
        model: `${provider}/tools`,
        tools,
        messages: [{ role: 'user', content: 'find x' }, first.body.message, { role: 'tool', tool_call_id: toolCall.id as string, content: '42' }],
      },
    });
    expect(second.status).toBe(200);
    expect(second.body.message).toEqual({ role: 'assistant', content: 'the tool said 42' });
    expect(at(second.body, 'usage.total_tokens')).toBe(18);
  });

  it('streams through the gateway chunk by chunk', async () => {
    const res = await fetch(`${env.gatewayUrl}/ai/chat`, {
      method: 'POST',
      headers: { ...key(), 'content-type': 'application/json' },
      body: JSON.stringify({ model: `${provider}/echo`, stream: true, messages: [{ role: 'user', content: 'one two three four five six' }] }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const arrivals: { at: number; text: string }[] = [];
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      arrivals.push({ at: Date.now(), text: buffer });
    }
    const events = buffer
      .split('\n\n')
      .filter(Boolean)
      .map((e) => e.replace(/^data: /, ''));
    expect(events[events.length - 1]).toBe('[DONE]');
    const parsed = events.slice(0, -1).map((e) => JSON.parse(e) as Json);
    const deltas = parsed.filter((e) => e.type === 'delta');
    expect(deltas.map((d) => d.text as string).join('')).toBe('echo: one two three four five six');
    expect(parsed[parsed.length - 1]).toMatchObject({ type: 'done', usage: { total_tokens: 18 }, finish_reason: 'stop' });
    // The stand-in sends a word every 150 ms: a buffering gateway would deliver everything at once.
    const firstDelta = arrivals.find((a) => a.text.includes('"delta"'))!;
    expect(arrivals[arrivals.length - 1].at - firstDelta.at).toBeGreaterThan(600);
    expect(arrivals.length).toBeGreaterThan(4);
  });

  it('maps provider failures: 500 → 502, 429 → 429 with its Retry-After, too slow → 504, never a 500', async () => {
    const fail = await gw('/ai/generate', { headers: key(), body: { model: `${provider}/fail`, prompt: 'x' } });
    expect(fail.status).toBe(502);
    expect(fail.body.message).toContain('500');
    const limited = await gw('/ai/chat', { headers: key(), body: { model: `${provider}/limited`, messages: [{ role: 'user', content: 'x' }] } });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('7');
    const slow = await gw('/ai/generate', { headers: key(), body: { model: `${provider}/slow`, prompt: 'x' } });
    expect(slow.status).toBe(504);
    const streamedLimit = await gw('/ai/generate', { headers: key(), body: { model: `${provider}/limited`, prompt: 'x', stream: true } });
    expect(streamedLimit.status).toBe(429);
    expect(streamedLimit.headers.get('retry-after')).toBe('7');
  });

  it('embeds with the local model deterministically and with a provider model', async () => {
    const a = await gw('/ai/embeddings', { headers: key(), body: { input: 'The invoice was paid late' } });
    const b = await gw('/ai/embeddings', { headers: key(), body: { model: 'local/hash-embedding-384', input: ['The invoice was paid late', 'x'] } });
    expect(a.status).toBe(200);
    expect(a.body.dimensions).toBe(384);
    expect(at(b.body, 'data.0.embedding')).toEqual(at(a.body, 'data.0.embedding'));
    const norm = Math.sqrt((at(a.body, 'data.0.embedding') as number[]).reduce((s, v) => s + v * v, 0));
    expect(norm).toBeCloseTo(1, 5);
    expect(at(a.body, 'usage.total_tokens')).toBeGreaterThan(0);
    const remote = await gw('/ai/embeddings', { headers: key(), body: { model: `${provider}/embed`, input: ['abc', 'abcdef'] } });
    expect(remote.status).toBe(200);
    expect((remote.body.data as Json[]).map((d) => (d.embedding as number[])[0])).toEqual([3, 6]);
  });

  it('answers with the local extractive model, marked as such, and streams it', async () => {
    const text = 'Solar panels convert sunlight into electricity. The weather was nice. Panels on roofs lower electricity bills for households.';
    const res = await gw('/ai/generate', { headers: key(), body: { model: 'local/extractive-summary', prompt: text } });
    expect(res.status).toBe(200);
    expect(res.body.text).toMatch(/^\[extractive summary by the built-in local model/);
    expect(res.body.text).toContain('Solar panels convert sunlight into electricity.');
    const streamed = await gw('/ai/generate', { headers: key(), body: { model: 'local/extractive-summary', prompt: text, stream: true } });
    expect(streamed.text).toContain('"type":"done"');
  });

  it('refuses bad input with 400 naming the field, and other tenants see no provider', async () => {
    const unknown = await gw('/ai/generate', { headers: key(), body: { model: 'nope/x', prompt: 'x' } });
    expect(unknown.status).toBe(400);
    expect(at(unknown.body, 'details.0.field')).toBe('model');
    const badRole = await gw('/ai/chat', { headers: key(), body: { model: 'local/extractive-summary', messages: [{ role: 'wizard', content: 'x' }] } });
    expect(badRole.status).toBe(400);
    expect(at(badRole.body, 'details.0.field')).toBe('messages[0].role');
    const embedAsChat = await gw('/ai/generate', { headers: key(), body: { model: `${provider}/embed`, prompt: 'x' } });
    expect(embedAsChat.status).toBe(400);

    const other = await createTenant(env.gatewayUrl, env.adminToken, `ai-other-${randomUUID().slice(0, 8)}`);
    const list = await gw('/ai/providers', { headers: withKey(other.test_key) });
    expect(list.body.data).toEqual([]);
    const mine = await gw('/ai/providers', { headers: key() });
    const id = at(mine.body, 'data.0.id') as string;
    const foreign = await gw(`/ai/providers/${id}`, { headers: withKey(other.test_key) });
    const missing = await gw(`/ai/providers/${randomUUID()}`, { headers: withKey(other.test_key) });
    expect(foreign.status).toBe(404);
    expect({ ...foreign.body, request_id: null }).toEqual({ ...missing.body, request_id: null });
    const foreignUse = await gw('/ai/generate', { headers: withKey(other.test_key), body: { model: `${provider}/echo`, prompt: 'x' } });
    expect(foreignUse.status).toBe(400);
  });
});
