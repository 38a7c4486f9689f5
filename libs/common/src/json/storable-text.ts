import { AppError } from '../errors/app.errors.js';

/**
 * Characters no PostgreSQL text or jsonb value can hold. NUL (U+0000) fails the whole statement
 * ("invalid byte sequence for encoding UTF8: 0x00" in text, "unsupported Unicode escape sequence"
 * in jsonb). An unpaired UTF-16 surrogate (JSON may spell one, `"\ud800"`) fails jsonb ("invalid
 * input syntax for type json") and is stored as U+FFFD in text, so the client's data would change
 * unseen. Both are refused where a request enters a service, never stripped or replaced.
 */
// eslint-disable-next-line no-control-regex -- NUL is the character looked for
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export type UnstorableCharacter = 'nul' | 'surrogate';

export interface UnstorableText {
  /** Where it is, from the value's root: object keys and array indexes. */
  path: (string | number)[];
  /** In the name of the key at `path`, not in its value. */
  inKey: boolean;
  character: UnstorableCharacter;
}

function characterIn(text: string): UnstorableCharacter | null {
  const match = UNSTORABLE.exec(text);
  if (!match) return null;
  return match[0] === '\u0000' ? 'nul' : 'surrogate';
}

function isPlainContainer(value: object): boolean {
  if (Array.isArray(value)) return true;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** `path` is shared and restored on the way back; it is copied only for the answer. */
function walk(value: unknown, path: (string | number)[]): UnstorableText | null {
  if (typeof value === 'string') {
    const character = characterIn(value);
    return character ? { path: [...path], inKey: false, character } : null;
  }
  // Parsed JSON, query strings and route parameters only: a Buffer or a Date holds no text of the client's.
  if (value === null || typeof value !== 'object' || !isPlainContainer(value)) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      path.push(i);
      const found = walk(value[i], path);
      path.pop();
      if (found) return found;
    }
    return null;
  }
  for (const [key, child] of Object.entries(value)) {
    const character = characterIn(key);
    if (character) return { path: [...path, key], inKey: true, character };
    path.push(key);
    const found = walk(child, path);
    path.pop();
    if (found) return found;
  }
  return null;
}

/**
 * The first string (value or object key, at any depth) that PostgreSQL could not store as sent,
 * or null. Recursive: what reaches it is parsed JSON, which the body parser caps at MAX_JSON_DEPTH
 * levels, or flat (query strings, route parameters, form fields).
 */
export function findUnstorableText(value: unknown): UnstorableText | null {
  return walk(value, []);
}

/** Where a request's value came from, for the message. */
export type RequestPart = 'body' | 'query' | 'path';

/** `scopes[1]`, `steps[0].input.url`: the field paths validation errors use. */
function fieldPath(path: (string | number)[]): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}

const PART_NAMES: Record<RequestPart, string> = { body: 'body field', query: 'query parameter', path: 'path parameter' };
const CHARACTER_NAMES: Record<UnstorableCharacter, string> = { nul: 'NUL (\\u0000)', surrogate: 'an unpaired UTF-16 surrogate' };

/** The field (as `details` name it) and the words for the message. */
function placeOf(found: UnstorableText, part: RequestPart): { field: string; place: string } {
  // A key is reported on the object that has it: the key itself cannot be printed as sent.
  const owner = fieldPath(found.inKey ? found.path.slice(0, -1) : found.path);
  if (owner) return { field: owner, place: `${found.inKey ? 'a key of ' : ''}${PART_NAMES[part]} '${owner}'` };
  if (part === 'body') return { field: 'body', place: found.inKey ? 'a key of the body' : 'the body' };
  return { field: part, place: `a ${PART_NAMES[part]} name` };
}

/**
 * The 400 for text PostgreSQL cannot hold (code `invalid_character`), naming where it is: a body
 * field by its path, a query or path parameter by its name.
 */
export function unstorableTextError(found: UnstorableText, part: RequestPart): AppError {
  const character = CHARACTER_NAMES[found.character];
  const { field, place } = placeOf(found, part);
  return new AppError('invalid_character', 400, `Invalid character in ${place}: text may not contain ${character}`, [
    { field, message: found.inKey ? `must not have a key containing ${character}` : `must not contain ${character}` },
  ]);
}

/** Throws unstorableTextError for the first string in `value` PostgreSQL could not store as sent. */
export function assertStorableText(value: unknown, part: RequestPart): void {
  const found = findUnstorableText(value);
  if (found) throw unstorableTextError(found, part);
}
