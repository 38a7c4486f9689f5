import { v7 } from 'uuid';

/** Time-ordered UUID (v7): ids sort by creation, so keyset cursors and B-tree inserts stay cheap. */
export function newId(): string {
  return v7();
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The platform's one UUID check (any version, any case), for ids that reach SQL as `uuid`: a
 * malformed one is answered as "not found" or a 400 before PostgreSQL could reject it with a 500.
 */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}
