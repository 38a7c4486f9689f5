import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AppError } from '@platform/common';
import { fileNameProblem, isMultipartFormData, receiveUpload } from './multipart-upload.js';

const LIMIT = 1024;

interface Outcome {
  ok: boolean;
  status?: number;
  details?: unknown;
  fields?: unknown;
  filename?: string;
  declaredType?: string;
  bytes?: number;
  sinkError?: string;
}

/** A real HTTP server, so the parser sees real requests, chunking and all. */
let server: Server;
let url: string;

async function handle(req: IncomingMessage): Promise<Outcome> {
  let sinkError: string | undefined;
  const sink = async (file: Readable) => {
    let bytes = 0;
    try {
      await pipeline(file, new Writable({ write: (chunk: Buffer, _e, done) => ((bytes += chunk.length), done()) }));
    } catch (error) {
      sinkError = (error as Error).message;
      throw error;
    }
    return bytes;
  };
  try {
    const upload = await receiveUpload(req, LIMIT, sink);
    return { ok: true, fields: upload.fields, filename: upload.filename, declaredType: upload.declaredType, bytes: upload.stored };
  } catch (error) {
    const e = error as AppError;
    return { ok: false, status: e.getStatus(), details: e.details, sinkError };
  }
}

beforeAll(async () => {
  server = createServer((req, res) => {
    void handle(req).then((outcome) => res.end(JSON.stringify(outcome)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function post(form: FormData): Promise<Outcome> {
  const res = await fetch(url, { method: 'POST', body: form });
  return (await res.json()) as Outcome;
}

const fileForm = (size: number, extra: [string, string][] = [], filename = 'data.bin') => {
  const form = new FormData();
  for (const [k, v] of extra) form.append(k, v);
  form.append('file', new Blob([new Uint8Array(size).fill(97)], { type: 'text/csv' }), filename);
  return form;
};

describe('receiveUpload', () => {
  it('streams the file part to the sink and collects name and metadata', async () => {
    const outcome = await post(
      fileForm(
        LIMIT,
        [
          ['name', 'reports/Q1 – ü.csv'],
          ['metadata', '{"a":1}'],
        ],
        'x.csv',
      ),
    );
    expect(outcome).toEqual({
      ok: true,
      fields: { name: 'reports/Q1 – ü.csv', metadata: { a: 1 } },
      filename: 'x.csv',
      declaredType: 'text/csv',
      bytes: LIMIT,
    });
  });

  it('decodes UTF-8 filenames', async () => {
    expect((await post(fileForm(3, [], 'Grüße.txt'))).filename).toBe('Grüße.txt');
  });

  it('stops a file over the limit with 413, failing the sink', async () => {
    const outcome = await post(fileForm(LIMIT + 1));
    expect(outcome.ok).toBe(false);
    expect(outcome.status).toBe(413);
    expect(outcome.sinkError).toBeDefined();
  });

  it('refuses a form without a file, a second file, a text "file" and unknown fields, naming the field', async () => {
    const noFile = new FormData();
    noFile.append('name', 'x');
    expect(await post(noFile)).toMatchObject({ ok: false, status: 400, details: [{ field: 'file' }] });

    const two = fileForm(3);
    two.append('file', new Blob(['b']), 'b.txt');
    expect(await post(two)).toMatchObject({ ok: false, status: 400, details: [{ field: 'file' }] });

    const text = new FormData();
    text.append('file', 'just text');
    expect(await post(text)).toMatchObject({ ok: false, status: 400, details: [{ field: 'file' }] });

    expect(await post(fileForm(3, [['colour', 'red']]))).toMatchObject({ ok: false, status: 400, details: [{ field: 'colour', message: 'is not allowed' }] });
    const after = fileForm(3);
    after.append('owner', 'me');
    expect(await post(after)).toMatchObject({ ok: false, status: 400, details: [{ field: 'owner' }] });
  });

  it('refuses bad names and metadata', async () => {
    expect(await post(fileForm(3, [['name', '   ']]))).toMatchObject({ ok: false, status: 400, details: [{ field: 'name' }] });
    expect(await post(fileForm(3, [['name', 'a\u0001b']]))).toMatchObject({ ok: false, status: 400, details: [{ field: 'name' }] });
    expect(await post(fileForm(3, [['metadata', '[1,2]']]))).toMatchObject({ ok: false, status: 400, details: [{ field: 'metadata' }] });
    expect(await post(fileForm(3, [['metadata', '{oops']]))).toMatchObject({ ok: false, status: 400, details: [{ field: 'metadata' }] });
    expect(
      await post(
        fileForm(3, [
          ['name', 'a'],
          ['name', 'b'],
        ]),
      ),
    ).toMatchObject({ ok: false, status: 400, details: [{ field: 'name' }] });
  });

  it('refuses a malformed body', async () => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=xyz' },
      body: '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nabc',
    });
    expect(await res.json()).toMatchObject({ ok: false, status: 400 });
    const noBoundary = await fetch(url, { method: 'POST', headers: { 'content-type': 'multipart/form-data' }, body: 'x' });
    expect(await noBoundary.json()).toMatchObject({ ok: false, status: 400 });
  });
});

describe('upload rules', () => {
  it('recognises multipart/form-data only', () => {
    expect(isMultipartFormData('multipart/form-data; boundary=x')).toBe(true);
    expect(isMultipartFormData('Multipart/Form-Data;boundary=x')).toBe(true);
    expect(isMultipartFormData('multipart/mixed; boundary=x')).toBe(false);
    expect(isMultipartFormData('application/json')).toBe(false);
    expect(isMultipartFormData(undefined)).toBe(false);
  });

  it('accepts labels with slashes and unicode, refuses empty, long and control characters', () => {
    expect(fileNameProblem('reports/2026/Q1 – Grüße.pdf')).toBeUndefined();
    expect(fileNameProblem('')).toBeDefined();
    expect(fileNameProblem('x'.repeat(256))).toBeDefined();
    expect(fileNameProblem('😀'.repeat(255))).toBeUndefined();
    expect(fileNameProblem('a\nb')).toBeDefined();
  });
});
