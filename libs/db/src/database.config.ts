/**
 * Connection settings for the three database roles. One DATABASE_URL names the server and the
 * database (and the admin account that sets them up); services never log in with it: they use
 * the application role, migrations the owner role, cross-tenant jobs the system role.
 */
export type DatabaseRole = 'admin' | 'owner' | 'app' | 'system';

export interface ConnectionSettings {
  host: string;
  port: number;
  database: string;
  user: string;
  password?: string;
}

export interface DatabaseSettings {
  admin: ConnectionSettings;
  owner: ConnectionSettings;
  app: ConnectionSettings;
  system: ConnectionSettings;
}

export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/platform';

export function databaseSettings(env: NodeJS.ProcessEnv = process.env): DatabaseSettings {
  const url = new URL(env.DATABASE_URL || DEFAULT_DATABASE_URL);
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new Error(`DATABASE_URL must be a postgres:// URL (got protocol '${url.protocol}')`);
  }
  const base = {
    host: decodeURIComponent(url.hostname) || '127.0.0.1',
    port: url.port ? Number(url.port) : 5432,
    database: decodeURIComponent(url.pathname.replace(/^\//, '')) || 'platform',
  };
  // Development default: each role's password is its name (trust auth ignores it locally).
  const role = (stem: string, defaultUser: string): ConnectionSettings => {
    const user = env[`DATABASE_${stem}_USER`] || defaultUser;
    return { ...base, user, password: env[`DATABASE_${stem}_PASSWORD`] || user };
  };
  return {
    admin: { ...base, user: decodeURIComponent(url.username) || 'postgres', password: url.password ? decodeURIComponent(url.password) : undefined },
    owner: role('OWNER', 'platform_owner'),
    app: role('APP', 'platform_app'),
    system: role('SYSTEM', 'platform_system'),
  };
}

export function withDatabase(settings: DatabaseSettings, database: string): DatabaseSettings {
  return {
    admin: { ...settings.admin, database },
    owner: { ...settings.owner, database },
    app: { ...settings.app, database },
    system: { ...settings.system, database },
  };
}
