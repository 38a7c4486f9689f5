import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { MasterKeyRing } from '../crypto/master-key-ring.js';
import { ConfigError } from './config.loader.js';

export interface MasterKeySettings {
  MASTER_KEYS?: string;
  /** A file holding the ring in MASTER_KEYS's form (a mounted Kubernetes or compose secret). */
  MASTER_KEYS_FILE?: string;
  MASTER_KEY: string;
  MASTER_KEY_FILE: string;
  NODE_ENV: string;
}

/** `what` names the setting (and entry) in the error: "MASTER_KEYS: entry 2 must be 32 bytes…". */
function decode(value: string, what: string): Buffer {
  const key = Buffer.from(value.trim(), 'base64');
  if (key.length !== 32) throw new ConfigError([`${what} must be 32 bytes, base64-encoded (got ${key.length} bytes)`]);
  return key;
}

/** Comma-separated base64 keys, each 32 bytes; entries are numbered from 1 in errors. */
export function decodeKeyList(value: string, setting: string): Buffer[] {
  return value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part, index) => decode(part, `${setting}: entry ${index + 1}`));
}

/**
 * The master keys everything encrypted or keyed at rest derives from, current first:
 * `MASTER_KEYS` (comma-separated), or `MASTER_KEY` alone as a one-key ring, or the ring read from
 * `MASTER_KEYS_FILE` (a mounted secret, so the key never sits in the environment; read, never
 * made). Production must configure one of the three; development makes a key on first start and
 * keeps it in `MASTER_KEY_FILE` (mode 0600), shared by every process started from the same folder.
 * Creation is exclusive, so processes starting together agree on one key.
 */
export function resolveMasterKeys(settings: MasterKeySettings): MasterKeyRing {
  if (settings.MASTER_KEYS?.trim()) {
    const ring = new MasterKeyRing(decodeKeyList(settings.MASTER_KEYS, 'MASTER_KEYS'));
    // Both set is a configuration being moved from one to the other: they must agree.
    if (settings.MASTER_KEY && !ring.keys.some((key) => key.equals(decode(settings.MASTER_KEY, 'MASTER_KEY:')))) {
      throw new ConfigError(['MASTER_KEY: set MASTER_KEYS or MASTER_KEY; when both are set, MASTER_KEY must be one of MASTER_KEYS']);
    }
    return ring;
  }
  if (settings.MASTER_KEY) return new MasterKeyRing([decode(settings.MASTER_KEY, 'MASTER_KEY:')]);
  if (settings.MASTER_KEYS_FILE?.trim()) return readKeyFile(settings.MASTER_KEYS_FILE.trim());
  if (settings.NODE_ENV === 'production') {
    throw new ConfigError([
      'MASTER_KEYS: required in production (32 bytes each, base64; or MASTER_KEY for one key, or MASTER_KEYS_FILE naming a file that holds them)',
    ]);
  }
  const file = resolve(settings.MASTER_KEY_FILE);
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, randomBytes(32).toString('base64'), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return new MasterKeyRing([decode(readFileSync(file, 'utf8'), `MASTER_KEY_FILE (${file}):`)]);
}

/** The ring in a file: MASTER_KEYS's form, commas or line breaks between keys. A missing file stops start-up. */
function readKeyFile(path: string): MasterKeyRing {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError([`MASTER_KEYS_FILE: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? String(error)})`]);
  }
  const keys = decodeKeyList(text.replace(/\s+/g, ','), `MASTER_KEYS_FILE (${path})`);
  if (!keys.length) throw new ConfigError([`MASTER_KEYS_FILE: ${path} holds no key`]);
  return new MasterKeyRing(keys);
}
