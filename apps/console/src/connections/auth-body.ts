import type { components } from '@platform-sdk/client';

type AuthBody = components['schemas']['ConnectionAuthDto'];
export type AuthType = AuthBody['type'];

/** The auth fields a scheme needs, as typed (secrets included: sent once, never shown again). */
export interface AuthInput {
  key: string;
  token: string;
  username: string;
  password: string;
  clientId: string;
  clientSecret: string;
  authorizationUrl: string;
  tokenUrl: string;
  scopes: string;
}

export const EMPTY_AUTH: AuthInput = {
  key: '',
  token: '',
  username: '',
  password: '',
  clientId: '',
  clientSecret: '',
  authorizationUrl: '',
  tokenUrl: '',
  scopes: '',
};

/** The body's `auth` for the chosen scheme: only that scheme's fields (the API refuses others); blanks left to the connector's defaults. */
export function authBody(type: AuthType, input: AuthInput): AuthBody {
  const given = (value: string) => (value.trim() ? value.trim() : undefined);
  const scopes = input.scopes.split(/[\s,]+/).filter(Boolean);
  switch (type) {
    case 'api_key':
      return { type, key: input.key };
    case 'bearer':
      return { type, token: input.token };
    case 'basic':
      return { type, username: input.username, password: input.password };
    case 'oauth2_code':
    case 'oauth2_client_credentials':
      return {
        type,
        client_id: input.clientId.trim(),
        client_secret: input.clientSecret || undefined,
        authorization_url: type === 'oauth2_code' ? given(input.authorizationUrl) : undefined,
        token_url: given(input.tokenUrl),
        scopes: scopes.length > 0 ? scopes : undefined,
      };
    case 'none':
      return { type };
  }
}
