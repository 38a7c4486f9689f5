import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

type Message = { role: string; content: string | null; tool_calls?: unknown[]; tool_call_id?: string };
/** A scripted turn: what the stand-in answers to the n-th call of a `scripted` model. */
export type ScriptedTurn = { content: string } | { tool_calls: { name: string; arguments: Record<string, unknown> }[] };

/**
 * An OpenAI-compatible HTTP server on loopback for the tests, answering by model name:
 * `echo` repeats the last user message; `fail` answers 500; `limited` 429 with Retry-After 7;
 * `slow` answers after 4 s; `tools` calls the first tool, then reports the tool's result;
 * `scripted` plays `script` turn by turn. Streams send each word 150 ms apart.
 * Hostile or broken servers: `bad-key` refuses with 401 echoing the key and every header it got
 * (as OpenAI's "Incorrect API key provided: sk-…" does); `mirror` answers with the headers it got
 * (streamed five characters at a time, so a key is split across chunks); `malformed` answers 200
 * in another shape (streamed: a chunk whose delta is a string). Embedding models: `embed-empty`
 * answers no vectors, `embed-ragged` vectors of two sizes.
 */
export class OpenAiStandIn {
  private server?: Server;
  url = '';
  readonly seen: SeenRequest[] = [];
  script: ScriptedTurn[] = [];

  async start(): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
    this.seen.push({ path: req.url ?? '', headers: req.headers, body });
    const json = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(payload));
    };
    const model = String(body.model);
    const key = String(req.headers.authorization ?? req.headers['api-key'] ?? '').replace(/^Bearer /, '');
    if (model === 'bad-key') {
      return json(401, { error: { message: `Incorrect API key provided: ${key}. You sent ${JSON.stringify(req.headers)}`, type: 'invalid_request_error' } });
    }
    if (req.url === '/v1/embeddings') {
      const input = body.input as string[];
      if (model === 'embed-empty') return json(200, { object: 'list', model, data: [], usage: { prompt_tokens: 1, total_tokens: 1 } });
      if (model === 'embed-ragged')
        return json(200, { object: 'list', model, data: input.map((_, index) => ({ object: 'embedding', index, embedding: [1, 2, 3].slice(0, index + 1) })) });
      return json(200, {
        object: 'list',
        model,
        data: input.map((text, index) => ({ object: 'embedding', index, embedding: [text.length, 1, 0] })),
        usage: { prompt_tokens: input.length * 3, total_tokens: input.length * 3 },
      });
    }
    if (model === 'fail') return json(500, { error: { message: 'upstream exploded', type: 'server_error' } });
    if (model === 'limited') return json(429, { error: { message: 'slow down', type: 'rate_limit' } }, { 'retry-after': '7' });
    if (model === 'slow') await new Promise((r) => setTimeout(r, 4000));
    if (res.destroyed) return;
    if (model === 'malformed' && !body.stream) return json(200, { id: 'x', object: 'chat.completion', output: 'hello' });
    if (model === 'malformed') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta: 'oops' }] })}\n\n`);
      return void res.end('data: [DONE]\n\n');
    }
    if (model === 'mirror') {
      const turn = { content: `you sent ${JSON.stringify(req.headers)}` };
      if (body.stream) return this.stream(res, model, turn, { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 }, 5);
      return json(200, {
        id: 'm',
        object: 'chat.completion',
        created: 1,
        model,
        choices: [{ index: 0, message: { role: 'assistant', ...turn }, finish_reason: 'stop' }],
      });
    }
    const messages = body.messages as Message[];
    const turn = this.turn(model, messages, body.tools as { function: { name: string } }[] | undefined);
    const usage = { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 };
    if (body.stream) return this.stream(res, model, turn, usage);
    const message = 'content' in turn ? { role: 'assistant', content: turn.content } : { role: 'assistant', content: null, tool_calls: toolCalls(turn) };
    json(200, {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1,
      model,
      choices: [{ index: 0, message, finish_reason: 'content' in turn ? 'stop' : 'tool_calls' }],
      usage,
    });
  }

  private turn(model: string, messages: Message[], tools: { function: { name: string } }[] | undefined): ScriptedTurn {
    const last = messages[messages.length - 1];
    if (model === 'scripted') return this.script.shift() ?? { content: 'the script has ended' };
    if (model === 'tools') {
      if (last.role === 'tool') return { content: `the tool said ${last.content ?? ''}` };
      return { tool_calls: [{ name: tools?.[0]?.function.name ?? 'none', arguments: { x: 1 } }] };
    }
    const user = [...messages].reverse().find((m) => m.role === 'user');
    return { content: `echo: ${user?.content ?? ''}` };
  }

  private async stream(res: ServerResponse, model: string, turn: ScriptedTurn, usage: Record<string, number>, pieceLength?: number): Promise<void> {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const send = (payload: unknown) => res.write(`data: ${JSON.stringify(payload)}\n\n`);
    const text = 'content' in turn ? turn.content : '';
    const pieces = pieceLength ? (text.match(new RegExp(`[\\s\\S]{1,${pieceLength}}`, 'g')) ?? []) : (text.match(/\S+\s*/g) ?? []);
    for (const piece of pieces) {
      send({ id: 'c', object: 'chat.completion.chunk', created: 1, model, choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] });
      if (!pieceLength) await new Promise((r) => setTimeout(r, 150));
    }
    send({ id: 'c', object: 'chat.completion.chunk', created: 1, model, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
    send({ id: 'c', object: 'chat.completion.chunk', created: 1, model, choices: [], usage });
    res.end('data: [DONE]\n\n');
  }
}

let callNo = 0;
function toolCalls(turn: { tool_calls: { name: string; arguments: Record<string, unknown> }[] }) {
  return turn.tool_calls.map((c) => ({ id: `call_${++callNo}`, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.arguments) } }));
}
