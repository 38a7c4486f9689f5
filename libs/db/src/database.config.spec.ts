import { describe, expect, it } from '@jest/globals';
import { databaseSettings, withDatabase } from './database.config.js';

describe('databaseSettings', () => {
  it('defaults to the local server, database platform and the standard role names', () => {
    const settings = databaseSettings({});
    const server = { host: '127.0.0.1', port: 5432, database: 'platform' };
    expect(settings.admin).toEqual({ ...server, user: 'postgres', password: undefined });
    expect(settings.owner).toEqual({ ...server, user: 'platform_owner', password: 'platform_owner' });
    expect(settings.app).toEqual({ ...server, user: 'platform_app', password: 'platform_app' });
    expect(settings.system).toEqual({ ...server, user: 'platform_system', password: 'platform_system' });
  });

  it('reads host, port, database, user and password from DATABASE_URL', () => {
    const settings = databaseSettings({ DATABASE_URL: 'postgres://admin:secret@db.example.com:6543/workflows' });
    expect(settings.admin).toEqual({ host: 'db.example.com', port: 6543, database: 'workflows', user: 'admin', password: 'secret' });
  });

  it('decodes a URL-encoded user, password and database name', () => {
    const settings = databaseSettings({ DATABASE_URL: 'postgresql://ad%40min:p%40ss%2Fw%3Ard%23@db:5432/my%20db' });
    expect(settings.admin.user).toBe('ad@min');
    expect(settings.admin.password).toBe('p@ss/w:rd#');
    expect(settings.admin.database).toBe('my db');
  });

  it('defaults the port and the database when the URL leaves them out', () => {
    const settings = databaseSettings({ DATABASE_URL: 'postgres://u@db.internal' });
    expect(settings.admin).toMatchObject({ host: 'db.internal', port: 5432, database: 'platform', user: 'u' });
  });

  it('shares the server and database across every role', () => {
    const settings = databaseSettings({ DATABASE_URL: 'postgres://admin:secret@db:6000/wf' });
    for (const role of [settings.owner, settings.app, settings.system]) {
      expect(role).toMatchObject({ host: 'db', port: 6000, database: 'wf' });
      expect(role.user).not.toBe('admin');
    }
  });

  it('takes per-role users and passwords from DATABASE_<ROLE>_USER / _PASSWORD', () => {
    const settings = databaseSettings({
      DATABASE_APP_USER: 'svc_app',
      DATABASE_APP_PASSWORD: 'app-secret',
      DATABASE_OWNER_USER: 'svc_owner',
      DATABASE_OWNER_PASSWORD: 'owner-secret',
      DATABASE_SYSTEM_USER: 'svc_system',
      DATABASE_SYSTEM_PASSWORD: 'system-secret',
    });
    expect(settings.app).toMatchObject({ user: 'svc_app', password: 'app-secret' });
    expect(settings.owner).toMatchObject({ user: 'svc_owner', password: 'owner-secret' });
    expect(settings.system).toMatchObject({ user: 'svc_system', password: 'system-secret' });
    expect(settings.admin.user).toBe('postgres');
  });

  it('ignores empty per-role overrides', () => {
    expect(databaseSettings({ DATABASE_APP_USER: '', DATABASE_APP_PASSWORD: '' }).app).toMatchObject({ user: 'platform_app', password: 'platform_app' });
  });

  it.each(['mysql://x', 'http://db:5432/platform'])('rejects the non-postgres URL %s', (url) => {
    expect(() => databaseSettings({ DATABASE_URL: url })).toThrow(/DATABASE_URL must be a postgres:\/\/ URL/);
  });
});

describe('withDatabase', () => {
  it('changes only the database of every role', () => {
    const settings = databaseSettings({ DATABASE_URL: 'postgres://admin:secret@db:6000/wf', DATABASE_APP_PASSWORD: 'pw' });
    const moved = withDatabase(settings, 'wf_test_1');
    for (const role of ['admin', 'owner', 'app', 'system'] as const) {
      expect(moved[role]).toEqual({ ...settings[role], database: 'wf_test_1' });
    }
    expect(settings.app.database).toBe('wf');
  });
});
