import { randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

export type KeyMode = 'live' | 'test';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BODY_LENGTH = 40;
const CHECKSUM_LENGTH = 6;
const PATTERN = /^sv_(live|test)_([0-9A-Za-z]{40})([0-9A-Za-z]{6})$/;
export const API_KEY_LENGTH = 'sv_live_'.length + BODY_LENGTH + CHECKSUM_LENGTH;

function base62(value: bigint, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) {
    out = ALPHABET[Number(value % 62n)] + out;
    value /= 62n;
  }
  return out;
}

function checksum(prefixAndBody: string): string {
  return base62(BigInt(crc32(prefixAndBody)), CHECKSUM_LENGTH);
}

/**
 * `sv_<live|test>_` + 40 base62 characters (about 238 bits of randomness) + a 6-character
 * CRC32 checksum. The checksum lets every service reject a mistyped or made-up key without
 * asking anyone, and lets secret scanners recognise a real key.
 */
export function generateApiKey(mode: KeyMode): string {
  const body = base62(BigInt(`0x${randomBytes(32).toString('hex')}`), BODY_LENGTH);
  const prefix = `sv_${mode}_${body}`;
  return prefix + checksum(prefix);
}

/** The key's mode when it is well-formed with a valid checksum, otherwise null. */
export function parseApiKey(value: string): { mode: KeyMode } | null {
  if (value.length !== API_KEY_LENGTH) return null;
  const match = PATTERN.exec(value);
  if (!match) return null;
  const [, mode, body, sum] = match;
  return checksum(`sv_${mode}_${body}`) === sum ? { mode: mode as KeyMode } : null;
}

export function looksLikeApiKey(value: string): boolean {
  return value.startsWith('sv_live_') || value.startsWith('sv_test_');
}

/** The part shown in lists and logs: enough to recognise a key, useless to use it. */
export function displayPrefix(key: string): string {
  return key.slice(0, 12);
}
