import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Body, Controller, Delete, Get, Module, Param, Post, Query, Req, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Request } from 'express';
import type { ErrorBody } from '@platform/common';
import { AllExceptionsFilter } from '../errors/all-exceptions.filter.js';
import { createValidationPipe } from '../errors/validation.pipe.js';
import { jsonBodyParser } from './json-body.parser.js';
import { StorableTextInterceptor } from './storable-text.interceptor.js';

@Controller('things')
class ThingsController {
  @Get()
  list(@Query() query: Record<string, unknown>) {
    return query;
  }

  @Delete(':id')
  remove(@Param('id') id: string) {
    return { id };
  }

  @Post()
  create(@Body() body: unknown) {
    return body;
  }

  /** Like the webhook intake: reads the request itself, no pipe sees the body. */
  @Post('raw')
  raw(@Req() req: Request) {
    return { got: req.body as unknown };
  }
}

@Module({ controllers: [ThingsController] })
class ThingsModule {}

const silent = { log() {}, error() {}, warn() {} };

describe('StorableTextInterceptor', () => {
  let app: INestApplication;
  let base: string;

  beforeAll(async () => {
    const nest = await NestFactory.create<NestExpressApplication>(ThingsModule, { logger: false, bodyParser: false });
    nest.use(jsonBodyParser(1024 * 1024));
    nest.useGlobalPipes(createValidationPipe());
    nest.useGlobalFilters(new AllExceptionsFilter(silent));
    nest.useGlobalInterceptors(new StorableTextInterceptor());
    await nest.listen(0, '127.0.0.1');
    app = nest;
    base = await nest.getUrl();
  });

  afterAll(async () => {
    await app?.close();
  });

  const send = async (path: string, init: RequestInit = {}) => {
    const res = await fetch(`${base}${path}`, init);
    return { status: res.status, body: (await res.json()) as ErrorBody & Record<string, unknown> };
  };
  const post = (path: string, json: string) => send(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: json });

  it('refuses NUL in a path parameter, naming it', async () => {
    const res = await send('/things/%00', { method: 'DELETE' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_character');
    expect(res.body.message).toBe("Invalid character in path parameter 'id': text may not contain NUL (\\u0000)");
    expect(res.body.details).toEqual([{ field: 'id', message: 'must not contain NUL (\\u0000)' }]);
  });

  it('refuses NUL in a query parameter, naming it', async () => {
    const res = await send('/things?status=ok&name=a%00b');
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([{ field: 'name', message: 'must not contain NUL (\\u0000)' }]);
  });

  it('refuses NUL in a JSON value or key at any depth, naming the field', async () => {
    const value = await post('/things', '{"input":{"rows":[{"note":"ok"},{"note":"a\\u0000"}]}}');
    expect(value.status).toBe(400);
    expect(value.body.details).toEqual([{ field: 'input.rows[1].note', message: 'must not contain NUL (\\u0000)' }]);
    const key = await post('/things', '{"input":{"a\\u0000b":1}}');
    expect(key.status).toBe(400);
    expect(key.body.details).toEqual([{ field: 'input', message: 'must not have a key containing NUL (\\u0000)' }]);
  });

  it('refuses an unpaired surrogate in a JSON body', async () => {
    const res = await post('/things', '{"name":"\\ud800"}');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("Invalid character in body field 'name': text may not contain an unpaired UTF-16 surrogate");
  });

  it('covers routes that read the request themselves', async () => {
    const res = await post('/things/raw', '{"event":"a\\u0000"}');
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([{ field: 'event', message: 'must not contain NUL (\\u0000)' }]);
  });

  it('lets storable text through: other control characters, emoji, escaped backslashes', async () => {
    const res = await post('/things/raw', '{"event":"tab\\t bell\\u0007 \\ud83d\\ude00 \\\\u0000"}');
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ got: { event: 'tab\t bell\u0007 😀 \\u0000' } });
    expect((await send('/things/abc', { method: 'DELETE' })).status).toBe(200);
  });
});
