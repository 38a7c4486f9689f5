import type { ConnectionSettings } from './database.config.js';

const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ETIMEDOUT', 'EAI_AGAIN', 'ECONNRESET']);

/** Turns a driver error at connect time into a sentence a person can act on. */
export function describeDatabaseError(error: unknown, target: ConnectionSettings): string {
  const err = (error ?? {}) as { code?: string; message?: string };
  const where = `${target.host}:${target.port}`;
  if (err.code && UNREACHABLE.has(err.code)) {
    return `Cannot reach PostgreSQL at ${where} (${err.code}). Start it (for example \`docker compose up -d postgres\`) or point DATABASE_URL at a running server.`;
  }
  if (/timeout/i.test(err.message ?? '')) {
    return `PostgreSQL at ${where} did not answer in time. Check that it is running and reachable, or set DATABASE_URL.`;
  }
  if (err.code === '3D000') {
    return `Database '${target.database}' does not exist on ${where}. Run \`npm run db:setup\` first.`;
  }
  if (err.code === '28P01' || err.code === '28000') {
    return `PostgreSQL at ${where} refused role '${target.user}' (${err.message}). Run \`npm run db:setup\`, or check the DATABASE_*_USER/PASSWORD settings.`;
  }
  return `PostgreSQL at ${where} failed: ${err.message ?? String(error)}`;
}

export class DatabaseUnavailableError extends Error {
  constructor(
    message: string,
    override readonly cause?: unknown,
  ) {
    super(message);
    this.name = 'DatabaseUnavailableError';
  }
}
