import { describe, expect, it } from 'vitest';
import { authBody } from './auth-body';

const input = {
  key: 'k',
  token: 't',
  username: 'u',
  password: 'p',
  clientId: ' app ',
  clientSecret: '',
  authorizationUrl: ' ',
  tokenUrl: 'https://p/token',
  scopes: 'a, b  c',
};

describe('authBody', () => {
  it('sends only the fields of the chosen scheme (the API refuses the others)', () => {
    expect(authBody('bearer', input)).toEqual({ type: 'bearer', token: 't' });
    expect(authBody('basic', input)).toEqual({ type: 'basic', username: 'u', password: 'p' });
    expect(authBody('none', input)).toEqual({ type: 'none' });
  });

  it("leaves blank OAuth fields to the connector's defaults and splits the scopes", () => {
    expect(JSON.parse(JSON.stringify(authBody('oauth2_code', input)))).toEqual({
      type: 'oauth2_code',
      client_id: 'app',
      token_url: 'https://p/token',
      scopes: ['a', 'b', 'c'],
    });
    expect(authBody('oauth2_client_credentials', { ...input, authorizationUrl: 'https://p/auth', scopes: '' })).not.toHaveProperty(
      'authorization_url',
      'https://p/auth',
    );
  });
});
