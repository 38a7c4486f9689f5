import { describe, expect, it } from '@jest/globals';
import { Ajv } from 'ajv';
import { BUILT_IN_CONNECTORS } from './builtins/index.js';
import { CONNECTOR_DEFINITION_OPENAPI } from './definition.openapi.js';
import { CUSTOM_CONNECTOR_EXAMPLE } from './connectors.controller.js';

// Ajv reads OpenAPI's `nullable`; formats are left to the definition's own validator.
const check = new Ajv({ strict: false, validateFormats: false }).compile(CONNECTOR_DEFINITION_OPENAPI);

describe('the connector definition as OpenAPI documents it', () => {
  it('keeps no JSON Schema-only keyword: no $id, no type lists, no null branches', () => {
    const text = JSON.stringify(CONNECTOR_DEFINITION_OPENAPI);
    expect(text).not.toContain('$id');
    expect(text).not.toMatch(/"type":\[/);
    expect(text).not.toContain('"type":"null"');
    expect(CONNECTOR_DEFINITION_OPENAPI).toMatchObject({
      type: 'object',
      additionalProperties: false,
      properties: { base_url: { type: 'string', nullable: true } },
    });
  });

  it('accepts every built-in connector and the documented example, and refuses what the validator refuses', () => {
    for (const connector of [...BUILT_IN_CONNECTORS, CUSTOM_CONNECTOR_EXAMPLE]) expect([connector.id, check(connector)]).toEqual([connector.id, true]);
    expect(check({ ...CUSTOM_CONNECTOR_EXAMPLE, driver: 'ftp' })).toBe(false);
    expect(check({ ...CUSTOM_CONNECTOR_EXAMPLE, base_url: null })).toBe(true);
    expect(check({ ...CUSTOM_CONNECTOR_EXAMPLE, surprise: 1 })).toBe(false);
  });
});
