import { Injectable } from '@nestjs/common';
import pg from 'pg';
import { AppError } from '@platform/common';
import type { OperationCall, OperationResult } from './operation.types.js';
import { Outbound } from '../outbound/outbound.js';

interface PostgresSettings {
  host: string;
  port?: number;
  database: string;
  ssl?: 'disable' | 'require' | 'verify-full';
  statement_timeout_ms?: number;
}

/**
 * The PostgreSQL connector's one operation: a parameterised query through `pg` (values travel as
 * parameters, never spliced into SQL). The host passes the same address check as every other
 * outbound call and the socket connects to the checked address; TLS still verifies the host name.
 */
@Injectable()
export class PostgresOperation {
  constructor(private readonly outbound: Outbound) {}

  async run(call: OperationCall): Promise<OperationResult> {
    const settings = call.connection.settings as unknown as PostgresSettings;
    const [address] = await this.outbound.addresses(settings.host, call.signal ?? AbortSignal.timeout(this.outbound.timeoutMs));
    const client = new pg.Client({
      host: address.address,
      port: settings.port ?? 5432,
      database: settings.database,
      user: call.credentials.username,
      password: call.credentials.password,
      ssl: tlsOptions(settings),
      connectionTimeoutMillis: this.outbound.timeoutMs,
      statement_timeout: settings.statement_timeout_ms ?? 30_000,
      query_timeout: this.outbound.timeoutMs,
      application_name: 'platform-connector',
    });
    client.on('error', () => undefined);
    try {
      await client.connect();
    } catch (error) {
      throw new AppError('connector_unreachable', 502, `PostgreSQL at ${settings.host}: ${describe(error)}`);
    }
    try {
      const { sql, params, max_rows: maxRows } = call.input as { sql: string; params?: unknown[]; max_rows: number };
      const result = await client.query({ text: sql, values: params ?? [] });
      const rows = (result.rows ?? []) as unknown[];
      const kept = withinBytes(rows.slice(0, maxRows), this.outbound.limitBytes);
      return {
        status: 200,
        ok: true,
        output: {
          rows: kept,
          row_count: result.rowCount,
          fields: (result.fields ?? []).map((f) => ({ name: f.name, type_id: f.dataTypeID })),
          truncated: kept.length < rows.length,
        },
      };
    } catch (error) {
      // The database refused the statement (syntax, permission, constraint): the caller's to fix.
      return { status: 400, ok: false, output: { code: (error as { code?: string }).code ?? null }, message: describe(error), retryable: false };
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}

/** The leading rows whose JSON fits in `limit` bytes: the answer must fit in one message back to the engine. */
function withinBytes(rows: unknown[], limit: number): unknown[] {
  let size = 0;
  for (let i = 0; i < rows.length; i++) {
    size += Buffer.byteLength(JSON.stringify(rows[i])) + 1;
    if (size > limit) return rows.slice(0, i);
  }
  return rows;
}

function tlsOptions(settings: PostgresSettings): pg.ClientConfig['ssl'] {
  switch (settings.ssl ?? 'verify-full') {
    case 'disable':
      return false;
    case 'require':
      return { rejectUnauthorized: false };
    case 'verify-full':
      return { servername: settings.host, rejectUnauthorized: true };
  }
}

function describe(error: unknown): string {
  return ((error as Error).message ?? String(error)).slice(0, 500);
}
