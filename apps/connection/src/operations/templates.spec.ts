import { describe, expect, it } from '@jest/globals';
import { formEncode, render, renderPath } from './templates.js';

const scope = { input: { owner: 'ac me', repo: 'api/v2', labels: ['a', 'b'], n: 3, nested: { k: 'v' } }, settings: { region: 'eu' } };

describe('connector templates', () => {
  it('takes an exact placeholder as the value itself and drops what is undefined', () => {
    expect(render({ labels: '{{input.labels}}', n: '{{input.n}}', missing: '{{input.nope}}', all: '{{input}}' }, scope)).toEqual({
      labels: ['a', 'b'],
      n: 3,
      all: scope.input,
    });
  });

  it('interpolates inside strings, and URL-encodes path pieces so they cannot add segments', () => {
    expect(render('region {{settings.region}}: {{input.nested}}', scope)).toBe('region eu: {"k":"v"}');
    expect(renderPath('/repos/{{input.owner}}/{{input.repo}}/issues', scope)).toBe('/repos/ac%20me/api%2Fv2/issues');
  });

  it('evaluates nothing but placeholders', () => {
    expect(render('{{input.constructor}}', scope)).toBeUndefined();
    expect(render('{{ process.env.HOME }}', scope)).toBe('{{ process.env.HOME }}');
  });

  it('form-encodes nested objects and arrays the way Stripe reads them', () => {
    expect(decodeURIComponent(formEncode({ email: 'a@b.c', metadata: { plan: 'pro' }, items: [{ price: 'p1' }], skip: undefined }))).toBe(
      'email=a@b.c&metadata[plan]=pro&items[0][price]=p1',
    );
  });
});
