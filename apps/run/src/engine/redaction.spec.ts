import { describe, expect, it } from '@jest/globals';
import { SecretRedactor } from '@platform/common';
import { referencedSecrets } from './redaction.js';

const names = (expression: string) => referencedSecrets([{ id: 'a', type: 'transform', input: { v: `{% ${expression} %}` } }]).sort();

describe('referencedSecrets', () => {
  it('finds a plain name', () => {
    expect(names('"Bearer " & secrets.API_KEY')).toEqual(['API_KEY']);
  });

  it('finds names with - and . written as a backtick path', () => {
    expect(names('secrets.`stripe-key` & secrets.`db.password`')).toEqual(['db.password', 'stripe-key']);
  });

  it('finds names with - and . written as a double-quoted path', () => {
    expect(names('secrets."stripe-key" & secrets."db.password"')).toEqual(['db.password', 'stripe-key']);
  });

  it('finds $lookup(secrets, "name") and secrets["name"]', () => {
    expect(names('$lookup(secrets, "stripe-key") & secrets["db.password"]')).toEqual(['db.password', 'stripe-key']);
  });

  it('finds names inside nested expressions, functions and every place of a definition', () => {
    const definition = [
      {
        id: 'c',
        type: 'condition',
        if: '{% $exists(secrets.`a-b`) %}',
        then: [{ id: 't', type: 'transform', input: { x: ['{% $map([1], function($v) { secrets."c.d" & $v }) %}'] } }],
      },
      { id: 'l', type: 'loop', items: '{% [secrets.E_F] %}', steps: [] },
    ];
    expect(referencedSecrets(definition).sort()).toEqual(['E_F', 'a-b', 'c.d']);
  });

  it('ignores literal values, string literals and paths that only end in secrets', () => {
    const definition = [
      { id: 'code', type: 'code', input: { code: 'return secrets.NOT_A_REF' } },
      { id: 't', type: 'transform', input: { a: '{% "secrets.IN_TEXT" %}', b: '{% input.secrets.NESTED %}' } },
    ];
    expect(referencedSecrets(definition)).toEqual([]);
  });
});

describe('secret redaction in runs', () => {
  it('redacts the value of a secret named with - and .', () => {
    const redactor = SecretRedactor.of({ 'stripe-key': 'sk_live_123', 'db.password': 'hunter22' });
    expect(redactor.redact({ h: 'Bearer sk_live_123', p: ['hunter22'] })).toEqual({ h: 'Bearer [redacted]', p: ['[redacted]'] });
  });
});
