import { IsInt, Max, Min } from 'class-validator';
import { loadConfig } from '@platform/common';

/** Limits of `POST /v1/data/query` (environment variables; README lists them). */
export class DataConfig {
  /** statement_timeout of a query, in milliseconds. */
  @IsInt()
  @Min(100)
  @Max(300_000)
  DATA_QUERY_TIMEOUT_MS: number = 5000;

  /** Rows a query answers at most; more sets `truncated: true`. */
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  DATA_QUERY_MAX_ROWS: number = 10_000;

  /** Bytes of row data a query answers at most (JSON); more sets `truncated: true`. */
  @IsInt()
  @Min(1024)
  @Max(1024 * 1024 * 1024)
  DATA_QUERY_MAX_BYTES: number = 10 * 1024 * 1024;
}

export const DATA_CONFIG = Symbol('DATA_CONFIG');

export function loadDataConfig(env: Record<string, string | undefined> = process.env): DataConfig {
  return loadConfig(DataConfig, env);
}
