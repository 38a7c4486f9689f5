import { v7 } from 'uuid';

/** Time-ordered UUID (v7): ids sort by creation, so keyset cursors and B-tree inserts stay cheap. */
export function newId(): string {
  return v7();
}
