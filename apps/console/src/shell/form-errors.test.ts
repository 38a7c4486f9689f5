import { describe, expect, it } from 'vitest';
import { PlatformApiError } from '@platform-sdk/client';
import { fieldsUnder, formErrors } from './form-errors';

const refusal = (status: number, code: string, details?: { field: string; message: string }[]) =>
  new PlatformApiError({ status, code, message: 'Validation failed', details, method: 'POST', path: '/connections' });

describe('formErrors', () => {
  it('puts each detail at its field (the first message of a field wins) and keeps one line for the rest', () => {
    const errors = formErrors(
      refusal(400, 'validation_failed', [
        { field: 'auth.token', message: 'is required for bearer' },
        { field: 'settings.base_url', message: 'must match "^https?://"' },
        { field: 'auth.token', message: 'second' },
      ]),
    );
    expect(errors.fields).toEqual({ 'auth.token': 'is required for bearer', 'settings.base_url': 'must match "^https?://"' });
    expect(errors.message).toContain('(400 validation_failed)');
  });

  it('names the field of a known error code without details, and nothing for other errors', () => {
    expect(formErrors(refusal(409, 'duplicate_external_id'), { duplicate_external_id: 'external_id' }).fields).toEqual({ external_id: 'Validation failed' });
    expect(formErrors(refusal(409, 'conflict'), { duplicate_external_id: 'external_id' }).fields).toEqual({});
    expect(formErrors(new Error('offline'))).toEqual({ fields: {}, message: 'offline' });
  });
});

describe('fieldsUnder', () => {
  it('keeps the fields of one part of the body, named within it', () => {
    expect(fieldsUnder({ 'settings.base_url': 'bad', name: 'empty', settingsx: 'no' }, 'settings')).toEqual({ base_url: 'bad' });
  });
});
