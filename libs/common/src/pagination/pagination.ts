import { AppError } from '../errors/app.errors.js';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;

export interface Page<T> {
  data: T[];
  next_cursor: string | null;
}

export function encodeCursor(position: Record<string, string | number>): string {
  return Buffer.from(JSON.stringify(position), 'utf8').toString('base64url');
}

/**
 * Reads a cursor made by encodeCursor; anything else is the client's mistake (400), never a
 * server error. `keys` names the fields the cursor must carry.
 */
export function decodeCursor<K extends string>(cursor: string | undefined, keys: readonly K[]): Record<K, string | number> | undefined {
  if (cursor === undefined || cursor === '') return undefined;
  const invalid = () => new AppError('invalid_cursor', 400, 'cursor is invalid', [{ field: 'cursor', message: 'is not a cursor returned by this list' }]);
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw invalid();
  const record = parsed as Record<string, unknown>;
  for (const key of keys) {
    const value = record[key];
    if (typeof value !== 'string' && typeof value !== 'number') throw invalid();
  }
  return record as Record<K, string | number>;
}

/**
 * Builds a page from rows fetched with `limit + 1`: the extra row only says whether there is a
 * next page, and the cursor points after the last row returned.
 */
export function toPage<R, T>(rows: R[], limit: number, map: (row: R) => T, positionOf: (row: R) => Record<string, string | number>): Page<T> {
  const hasMore = rows.length > limit;
  const visible = hasMore ? rows.slice(0, limit) : rows;
  const last = visible[visible.length - 1];
  return { data: visible.map(map), next_cursor: hasMore && last !== undefined ? encodeCursor(positionOf(last)) : null };
}
