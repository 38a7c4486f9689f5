import { describe, expect, it } from '@jest/globals';
import { describeDatabaseError } from './connection-errors.js';
import type { ConnectionSettings } from './database.config.js';

const target: ConnectionSettings = { host: 'db.internal', port: 6543, database: 'workflows', user: 'platform_app', password: 'secret' };

describe('describeDatabaseError', () => {
  it.each(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ETIMEDOUT', 'EAI_AGAIN', 'ECONNRESET'])(
    'for %s names host:port and says how to start PostgreSQL',
    (code) => {
      const message = describeDatabaseError(Object.assign(new Error(`connect ${code}`), { code }), target);
      expect(message).toContain('Cannot reach PostgreSQL at db.internal:6543');
      expect(message).toContain(`(${code})`);
      expect(message).toContain('docker compose up -d postgres');
      expect(message).toContain('DATABASE_URL');
    },
  );

  it('reports a timeout without a code', () => {
    expect(describeDatabaseError(new Error('Connection terminated due to connection timeout'), target)).toBe(
      'PostgreSQL at db.internal:6543 did not answer in time. Check that it is running and reachable, or set DATABASE_URL.',
    );
  });

  it('names a missing database and says to run db:setup', () => {
    expect(describeDatabaseError({ code: '3D000', message: 'database "workflows" does not exist' }, target)).toBe(
      "Database 'workflows' does not exist on db.internal:6543. Run `npm run db:setup` first.",
    );
  });

  it.each(['28P01', '28000'])('names the refused role for %s', (code) => {
    const message = describeDatabaseError({ code, message: 'password authentication failed' }, target);
    expect(message).toContain("refused role 'platform_app'");
    expect(message).toContain('npm run db:setup');
    expect(message).toContain('DATABASE_*_USER/PASSWORD');
    expect(message).not.toContain('secret');
  });

  it('passes any other error message through', () => {
    expect(describeDatabaseError({ code: '53300', message: 'too many connections' }, target)).toBe(
      'PostgreSQL at db.internal:6543 failed: too many connections',
    );
    expect(describeDatabaseError('boom', target)).toBe('PostgreSQL at db.internal:6543 failed: boom');
  });
});
