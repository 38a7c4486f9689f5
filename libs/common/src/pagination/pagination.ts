import { AppError } from '../errors/app.errors.js';
import { isUuid } from '../ids.js';
import { findUnstorableText } from '../json/storable-text.js';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;

export interface Page<T> {
  data: T[];
  next_cursor: string | null;
}

/**
 * What one field of a cursor holds. The values go into SQL as parameters (`$1::uuid`,
 * `$1::timestamptz`, `name > $1`), so each is checked here: PostgreSQL would answer a bad one with
 * an error, and the client with a 500.
 */
export type CursorField =
  /** a row id */
  | 'uuid'
  /** an instant, as `Date.toISOString()` writes it */
  | 'timestamp'
  /** a name or other text, compared as text: anything PostgreSQL text can hold */
  | 'text';

/** The fields a list's cursor carries, e.g. `{ at: 'timestamp', id: 'uuid' }`. */
export type CursorShape = Record<string, CursorField>;

// What toISOString() writes for years 0–9999, all within PostgreSQL's timestamptz; written back
// the same, so no date JavaScript would roll over (February 31st) reaches the database.
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const isInstant = (value: string) => {
  const time = ISO_INSTANT.test(value) ? Date.parse(value) : NaN;
  return !Number.isNaN(time) && new Date(time).toISOString() === value;
};

const FIELD_CHECKS: Record<CursorField, (value: string) => boolean> = {
  uuid: isUuid,
  timestamp: isInstant,
  text: (value) => findUnstorableText(value) === null,
};

export function encodeCursor(position: Record<string, string>): string {
  return Buffer.from(JSON.stringify(position), 'utf8').toString('base64url');
}

/**
 * Reads a cursor made by encodeCursor for a list whose cursors have `shape`: the same fields, no
 * others, each a string of its kind. Anything else (garbage, another list's cursor, a forged value)
 * is the client's mistake: 400 `invalid_cursor`, never a server error.
 */
export function decodeCursor<S extends CursorShape>(cursor: string | undefined, shape: S): { [K in keyof S]: string } | undefined {
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
  const keys = Object.keys(shape);
  if (Object.keys(record).length !== keys.length) throw invalid();
  for (const key of keys) {
    const value = record[key];
    if (typeof value !== 'string' || !FIELD_CHECKS[shape[key]](value)) throw invalid();
  }
  return record as { [K in keyof S]: string };
}

/**
 * Builds a page from rows fetched with `limit + 1`: the extra row only says whether there is a
 * next page, and the cursor points after the last row returned.
 */
export function toPage<R, T>(rows: R[], limit: number, map: (row: R) => T, positionOf: (row: R) => Record<string, string>): Page<T> {
  const hasMore = rows.length > limit;
  const visible = hasMore ? rows.slice(0, limit) : rows;
  const last = visible[visible.length - 1];
  return { data: visible.map(map), next_cursor: hasMore && last !== undefined ? encodeCursor(positionOf(last)) : null };
}

/**
 * One page of a list that is read whole (a connector's operations, the models another service
 * reports): ordered by a unique text key, the cursor (`{ [field]: key }`, field named per list)
 * holding the key of the last item returned, so the list pages like one read from a table.
 */
export function pageOfList<T>(items: readonly T[], q: { limit: number; cursor?: string }, field: string, keyOf: (item: T) => string): Page<T> {
  const after = decodeCursor(q.cursor, { [field]: 'text' })?.[field];
  const sorted = [...items].sort((x, y) => (keyOf(x) < keyOf(y) ? -1 : keyOf(x) > keyOf(y) ? 1 : 0));
  const rest = after === undefined ? sorted : sorted.filter((item) => keyOf(item) > after);
  return toPage(
    rest.slice(0, q.limit + 1),
    q.limit,
    (item) => item,
    (item) => ({ [field]: keyOf(item) }),
  );
}
