import type { ConnectorAuthScheme, ConnectorDefinition } from '@platform/messaging';
import type { ConnectionAuthDto } from './dto/connection.request.dto.js';
import type { AuthSettings, Credentials } from './connection.record.js';
import { ConnectionErrors } from './connections.errors.js';

const FIELDS: Record<ConnectionAuthDto['type'], readonly (keyof ConnectionAuthDto)[]> = {
  none: [],
  api_key: ['key', 'in', 'name'],
  basic: ['username', 'password'],
  bearer: ['token'],
  oauth2_client_credentials: ['client_id', 'client_secret', 'token_url', 'scopes'],
  oauth2_code: ['client_id', 'client_secret', 'authorization_url', 'token_url', 'scopes', 'issuer'],
};

export interface SplitAuth {
  settings: AuthSettings;
  credentials: Credentials;
}

/**
 * A connection's auth, checked against the connector's schemes and split into what is stored in
 * the clear (where a key goes, OAuth endpoints and client id) and what is sealed. `kept` are the
 * stored credentials of the same scheme: a secret left out of an update stays.
 */
export function splitAuth(def: ConnectorDefinition, dto: ConnectionAuthDto, kept: Credentials = {}): SplitAuth {
  const scheme = def.auth.find((a) => a.type === dto.type);
  if (!scheme) throw ConnectionErrors.invalid('auth.type', `must be one of ${def.auth.map((a) => a.type).join(', ')} for ${def.id}`);
  for (const key of Object.keys(dto) as (keyof ConnectionAuthDto)[]) {
    if (key !== 'type' && dto[key] !== undefined && !FIELDS[dto.type].includes(key))
      throw ConnectionErrors.invalid(`auth.${key}`, `is not used by ${dto.type}`);
  }
  const need = <T>(value: T | undefined, field: string): T => {
    if (value === undefined || value === null || value === '') throw ConnectionErrors.invalid(`auth.${field}`, `is required for ${dto.type}`);
    return value;
  };
  switch (dto.type) {
    case 'none':
      return { settings: {}, credentials: {} };
    case 'api_key':
      return {
        settings: { in: dto.in ?? scheme.in ?? 'header', name: dto.name ?? scheme.name ?? 'X-API-Key', ...(scheme.prefix ? { prefix: scheme.prefix } : {}) },
        credentials: { key: need(dto.key ?? kept.key, 'key') },
      };
    case 'basic':
      return { settings: {}, credentials: { username: need(dto.username ?? kept.username, 'username'), password: dto.password ?? kept.password ?? '' } };
    case 'bearer':
      return { settings: scheme.prefix ? { prefix: scheme.prefix } : {}, credentials: { token: need(dto.token ?? kept.token, 'token') } };
    case 'oauth2_client_credentials':
      return {
        settings: oauthSettings(dto, scheme, need, false),
        credentials: { client_secret: need(dto.client_secret ?? kept.client_secret, 'client_secret') },
      };
    case 'oauth2_code':
      return {
        settings: oauthSettings(dto, scheme, need, true),
        credentials: (dto.client_secret ?? kept.client_secret) ? { client_secret: dto.client_secret ?? kept.client_secret } : {},
      };
  }
}

function oauthSettings(dto: ConnectionAuthDto, scheme: ConnectorAuthScheme, need: <T>(v: T | undefined, f: string) => T, code: boolean): AuthSettings {
  const settings: AuthSettings = {
    client_id: need(dto.client_id, 'client_id'),
    token_url: need(dto.token_url ?? scheme.token_url, 'token_url'),
    scopes: dto.scopes ?? scheme.scopes ?? [],
  };
  if (code) settings.authorization_url = need(dto.authorization_url ?? scheme.authorization_url, 'authorization_url');
  if (dto.issuer) settings.issuer = dto.issuer;
  return settings;
}
