import { describe, expect, it } from '@jest/globals';
import { createValidationPipe } from '@platform/service';
import { PatchResourceRequestDto, ResourceRequestDto } from './dto/resource.request.dto.js';
import { mergeConfig } from './resources.service.js';

const validate = (metatype: new () => object, body: unknown) => createValidationPipe().transform(body, { type: 'body', metatype });

async function details(metatype: new () => object, body: unknown): Promise<unknown> {
  try {
    await validate(metatype, body);
  } catch (error) {
    return (error as { details?: unknown }).details;
  }
  return undefined;
}

describe('mergeConfig', () => {
  it('merges at the top level: patch keys win, null removes, nested objects are replaced whole', () => {
    expect(mergeConfig({ host: 'a', port: 1, tls: { ca: 'x', verify: true } }, { port: 2, host: null, tls: { verify: false }, db: 'orders' })).toEqual({
      port: 2,
      tls: { verify: false },
      db: 'orders',
    });
  });
});

describe('resource bodies', () => {
  it('accepts a full body and refuses bad names, types, configs and unknown fields by name', async () => {
    await expect(validate(ResourceRequestDto, { name: 'orders-db.v1_2', type: 'postgres', config: { port: 5432 } })).resolves.toBeDefined();
    expect(await details(ResourceRequestDto, { name: 'bad name', type: 'x', config: {} })).toEqual([{ field: 'name', message: expect.any(String) }]);
    expect(await details(ResourceRequestDto, { name: 'a'.repeat(129), type: 'x', config: {} })).toEqual([{ field: 'name', message: expect.any(String) }]);
    expect(await details(ResourceRequestDto, { name: 'a', type: '', config: {} })).toEqual([{ field: 'type', message: expect.any(String) }]);
    expect(await details(ResourceRequestDto, { name: 'a', type: 'x', config: [1] })).toEqual([{ field: 'config', message: expect.any(String) }]);
    expect(await details(ResourceRequestDto, { name: 'a', type: 'x', config: {}, colour: 'red' })).toEqual([{ field: 'colour', message: 'is not allowed' }]);
    expect(await details(PatchResourceRequestDto, { config: 'x' })).toEqual([{ field: 'config', message: expect.any(String) }]);
  });
});
