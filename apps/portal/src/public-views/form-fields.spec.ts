import { describe, expect, it } from '@jest/globals';
import { formFields, readSubmission } from './form-fields.js';

const SCHEMA = {
  type: 'object',
  required: ['email', 'quantity'],
  properties: {
    email: { type: 'string', format: 'email', title: 'E-mail' },
    quantity: { type: 'integer', minimum: 1 },
    price: { type: 'number' },
    express: { type: 'boolean' },
    size: { type: 'string', enum: ['S', 'M', 'L'] },
    extra: { type: 'object' },
    note: { type: 'string', description: 'Anything else' },
  },
};

describe('form fields from a JSON Schema', () => {
  it('maps each property to an input kind, with label, hint and required', () => {
    expect(formFields(SCHEMA).map((f) => [f.name, f.kind, f.label, f.required])).toEqual([
      ['email', 'email', 'E-mail', true],
      ['quantity', 'integer', 'quantity', true],
      ['price', 'number', 'price', false],
      ['express', 'checkbox', 'express', false],
      ['size', 'select', 'size', false],
      ['extra', 'json', 'extra', false],
      ['note', 'text', 'note', false],
    ]);
    expect(formFields(SCHEMA).find((f) => f.name === 'note')?.description).toBe('Anything else');
  });

  it('types the submitted strings as the schema says and leaves out empty optional fields', () => {
    const { input, errors } = readSubmission(formFields(SCHEMA), {
      email: ' ana@example.com ',
      quantity: '3',
      price: '9.5',
      express: 'on',
      size: 'M',
      extra: '{"gift":true}',
      note: '',
    });
    expect(errors).toEqual([]);
    expect(input).toEqual({ email: 'ana@example.com', quantity: 3, price: 9.5, express: true, size: 'M', extra: { gift: true } });
  });

  it('names every field it cannot accept', () => {
    const { errors } = readSubmission(formFields(SCHEMA), { email: '', quantity: '2.5', price: 'x', size: 'XL', extra: '{' });
    expect(errors.map((e) => e.field)).toEqual(['email', 'quantity', 'price', 'size', 'extra']);
  });
});
