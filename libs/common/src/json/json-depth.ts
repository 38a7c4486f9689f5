/**
 * How deeply JSON from outside may nest. Deeper documents are refused before anything recursive
 * (class-transformer, validators, JSONata, JSON Schema, jsonb) sees them: a few thousand levels
 * overflow the stack of a recursive walk. A hundred levels leave room for any real workflow.
 */
export const MAX_JSON_DEPTH = 100;

export interface DepthViolation {
  /** The top-level field the deep value sits in, when the document is an object. */
  field: string | null;
  depth: number;
}

const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;

/**
 * Scans JSON text (not yet parsed) for nesting deeper than `maxDepth`, in one pass without
 * recursion. Malformed text is left to the parser, which says what is wrong with it.
 */
export function findJsonDepthViolation(text: Uint8Array, maxDepth = MAX_JSON_DEPTH): DepthViolation | null {
  let depth = 0;
  let inString = false;
  let escaped = false;
  let stringStart = -1;
  let lastTopLevelString: [number, number] | null = null;
  let topKey: [number, number] | null = null;
  const rootIsObject = firstSignificantByte(text) === OPEN_OBJECT;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (c === BACKSLASH) escaped = true;
      else if (c === QUOTE) {
        inString = false;
        if (depth === 1) lastTopLevelString = [stringStart, i];
      }
      continue;
    }
    if (c === QUOTE) {
      inString = true;
      stringStart = i + 1;
    } else if (c === COLON && depth === 1) {
      topKey = lastTopLevelString;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      depth++;
      if (depth > maxDepth) {
        const field = rootIsObject && topKey ? Buffer.from(text.subarray(topKey[0], Math.min(topKey[1], topKey[0] + 200))).toString('utf8') : null;
        return { field, depth };
      }
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      depth--;
    }
  }
  return null;
}

function firstSignificantByte(text: Uint8Array): number | undefined {
  for (const c of text) if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09 && c !== 0xef && c !== 0xbb && c !== 0xbf) return c;
  return undefined;
}

/** The same limit for a value already parsed (a NATS payload, a stored document), walked without recursion. */
export function exceedsJsonDepth(value: unknown, maxDepth = MAX_JSON_DEPTH): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [current, depth] = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth + 1 > maxDepth) return true;
    const children = Array.isArray(current) ? current : Object.values(current as Record<string, unknown>);
    for (const child of children) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}
