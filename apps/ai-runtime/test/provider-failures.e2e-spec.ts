import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SecretWatch, call, createTenant, e2eEnvironment, eventually, withKey, type TestTenant } from '@platform/testing';
import { OpenAiStandIn } from './openai-stand-in.js';

const env = e2eEnvironment();
type Json = Record<string, unknown>;
const gw = (path: string, request?: Parameters<typeof call>[2]) => call<Json>(env.gatewayUrl, path, request);

/** Reads a streamed answer whole (the watch keeps it too). */
async function streamed(watch: SecretWatch, path: string, headers: Record<string, string>, body: Json): Promise<{ status: number; text: string }> {
  const res = await fetch(`${env.gatewayUrl}${path}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  watch.record(`stream of ${path}`, text);
  return { status: res.status, text };
}

/** The text the deltas of an event stream add up to, and its final message. */
function streamText(text: string): { deltas: string; done: Json | undefined } {
  const events = text
    .split('\n\n')
    .map((e) => e.replace(/^data: /, ''))
    .filter((e) => e && e !== '[DONE]')
    .map((e) => JSON.parse(e) as Json);
  return {
    deltas: events
      .filter((e) => e.type === 'delta')
      .map((e) => e.text as string)
      .join(''),
    done: events.find((e) => e.type === 'done'),
  };
}

describe('AI runtime: what a provider echoes or mangles', () => {
  let tenant: TestTenant;
  let provider: string;
  let azure: string;
  const standIn = new OpenAiStandIn();
  const watch = new SecretWatch();
  const [apiKey, azureKey] = watch.add(`sk-proj-${randomUUID()}`, `az-${randomUUID().replace(/-/g, '')}`);
  const key = () => withKey(tenant.test_key);

  beforeAll(async () => {
    await standIn.start();
    tenant = await createTenant(env.gatewayUrl, env.adminToken, `ai-echo-${randomUUID().slice(0, 8)}`);
    provider = `echo-${randomUUID().slice(0, 6)}`;
    azure = `azure-${randomUUID().slice(0, 6)}`;
    const models = ['bad-key', 'mirror', 'malformed']
      .map((id) => ({ id, kind: 'chat' }))
      .concat(['embed', 'embed-empty', 'embed-ragged'].map((id) => ({ id, kind: 'embedding' })));
    for (const [name, secret, header] of [
      [provider, apiKey, 'authorization'],
      [azure, azureKey, 'api-key'],
    ] as const) {
      const created = await gw('/ai/providers', { headers: key(), body: { name, base_url: standIn.url, api_key: secret, api_key_header: header, models } });
      expect(created.status).toBe(201);
    }
  });

  afterAll(async () => {
    await standIn.stop();
    expect(await watch.leaks()).toEqual([]);
  });

  it('answers a provider that refuses the key with 502 naming its status, the key it echoes redacted', async () => {
    for (const [name, secret] of [
      [provider, apiKey],
      [azure, azureKey],
    ]) {
      const res = await gw('/ai/chat', { headers: key(), body: { model: `${name}/bad-key`, messages: [{ role: 'user', content: 'hi' }] } });
      expect(res.status).toBe(502);
      expect(res.body.message).toMatch(/^The model provider answered 401: Incorrect API key provided: \[redacted\]\./);
      expect(res.text).not.toContain(secret);
      // The stand-in did receive it: the redaction is of what came back, not of what was sent.
      expect(JSON.stringify(standIn.seen.at(-1)?.headers)).toContain(secret);
    }
    const stream = await streamed(watch, '/ai/generate', key(), { model: `${provider}/bad-key`, prompt: 'hi', stream: true });
    expect(stream.status).toBe(502);
    expect(stream.text).toContain('[redacted]');
  });

  it('redacts the key from an answer that echoes it, streamed or not, also split across chunks', async () => {
    const res = await gw('/ai/chat', { headers: key(), body: { model: `${provider}/mirror`, messages: [{ role: 'user', content: 'hi' }] } });
    expect(res.status).toBe(200);
    expect((res.body.message as Json).content).toContain('"authorization":"Bearer [redacted]"');
    const stream = await streamed(watch, '/ai/chat', key(), { model: `${provider}/mirror`, stream: true, messages: [{ role: 'user', content: 'hi' }] });
    expect(stream.status).toBe(200);
    const { deltas, done } = streamText(stream.text);
    expect(deltas).toContain('"authorization":"Bearer [redacted]"');
    expect((done?.message as Json).content).toBe(deltas);
  });

  it('keeps the key out of an ai.generate step’s error and the execution’s logs', async () => {
    const wf = await gw('/api/v1/workflow/workflows', {
      headers: key(),
      body: { name: `wf-${randomUUID().slice(0, 8)}`, steps: [{ id: 'gen', type: 'ai.generate', input: { model: `${provider}/bad-key`, prompt: 'x' } }] },
    });
    expect(wf.status).toBe(201);
    const started = await gw('/v1/automations/run', { headers: key(), body: { automation_id: wf.body.id, input: {} } });
    expect(started.status).toBe(202);
    const id = started.body.run_id as string;
    const done = await eventually('the execution to fail', async () => {
      const e = await gw(`/run/executions/${id}`, { headers: key() });
      return e.body.status === 'failed' ? e : undefined;
    });
    expect(JSON.stringify(done.body.error)).toContain('Incorrect API key provided: [redacted]');
    const logs = await gw(`/run/executions/${id}/logs?limit=200`, { headers: key() });
    expect(logs.status).toBe(200);
    expect(logs.text).not.toContain(apiKey);
  });

  it('answers a provider’s answer of another shape with 502 naming what is wrong, never JavaScript error text', async () => {
    const chat = await gw('/ai/chat', { headers: key(), body: { model: `${provider}/malformed`, messages: [{ role: 'user', content: 'hi' }] } });
    expect(chat.status).toBe(502);
    expect(chat.body.message).toBe("The model provider's chat completion is malformed: choices is missing");
    const stream = await streamed(watch, '/ai/chat', key(), { model: `${provider}/malformed`, stream: true, messages: [{ role: 'user', content: 'hi' }] });
    expect(stream.status).toBe(502);
    expect(JSON.parse(stream.text)).toMatchObject({ message: "The model provider's streamed chunk is malformed: choices[0].delta must be object,null" });
    const empty = await gw('/ai/embeddings', { headers: key(), body: { model: `${provider}/embed-empty`, input: ['a', 'b'] } });
    expect(empty.status).toBe(502);
    expect(empty.body.message).toBe("The model provider's embeddings answer is malformed: data has 0 embeddings for 2 inputs");
    const ragged = await gw('/ai/embeddings', { headers: key(), body: { model: `${provider}/embed-ragged`, input: ['a', 'b'] } });
    expect(ragged.status).toBe(502);
    expect(ragged.body.message).toBe("The model provider's embeddings answer is malformed: data[1].embedding has 2 dimensions, data[0] has 1");
    for (const res of [chat, empty, ragged]) expect(res.text).not.toMatch(/Cannot read|undefined|TypeError/);
  });
});
