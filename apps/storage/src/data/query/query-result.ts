/** PostgreSQL type OIDs a data query answers, named in the data tables' vocabulary where one fits. */
const TYPE_NAMES: Readonly<Record<number, string>> = {
  16: 'boolean',
  20: 'number',
  21: 'number',
  23: 'number',
  26: 'number',
  700: 'number',
  701: 'number',
  1700: 'number',
  25: 'text',
  18: 'text',
  19: 'text',
  1042: 'text',
  1043: 'text',
  1114: 'timestamp',
  1184: 'timestamp',
  1082: 'date',
  1083: 'time',
  1266: 'time',
  1186: 'interval',
  114: 'json',
  3802: 'json',
  2950: 'uuid',
  17: 'bytea',
};

const ARRAY_TYPES = new Set([1000, 1005, 1007, 1016, 1021, 1022, 1231, 1009, 1015, 1014, 1182, 1115, 1185, 2951, 199, 3807, 1183, 1187]);

export function typeName(oid: number): string {
  return TYPE_NAMES[oid] ?? (ARRAY_TYPES.has(oid) ? 'array' : 'text');
}

/** Types whose default pg parsing is replaced: kept as the database's text, or made JSON-friendly. */
const AS_TEXT = new Set([1082, 1083, 1266, 1186, 17, 1114]);

export type TypeParser = (value: string) => unknown;

function bigintToJson(text: string): unknown {
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : text;
}

function numericToJson(text: string): unknown {
  const n = Number(text);
  return Number.isFinite(n) ? n : text;
}

/**
 * Parsers for a query's answer: counts (int8) and numerics as JSON numbers (a string when a
 * number cannot hold them exactly), dates, times, intervals and bytea as PostgreSQL prints them,
 * timestamps without zone as ISO text; everything else as node-postgres parses it.
 */
export function answerParser(oid: number, fallback: (oid: number) => TypeParser): TypeParser {
  if (oid === 20) return bigintToJson;
  if (oid === 1700) return numericToJson;
  if (oid === 1114) return (text) => text.replace(' ', 'T');
  if (AS_TEXT.has(oid)) return (text) => text;
  if (oid === 1016 || oid === 1231) {
    const parse = fallback(oid);
    return (text) => (parse(text) as (string | null)[]).map((v) => (v === null ? null : oid === 1016 ? bigintToJson(v) : numericToJson(v)));
  }
  return fallback(oid);
}

export function jsonValue(value: unknown): unknown {
  return value instanceof Date ? (Number.isNaN(value.getTime()) ? null : value.toISOString()) : value;
}
