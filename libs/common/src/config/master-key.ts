import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { ConfigError } from './config.loader.js';

export interface MasterKeySettings {
  MASTER_KEY: string;
  MASTER_KEY_FILE: string;
  NODE_ENV: string;
}

function decode(value: string, source: string): Buffer {
  const key = Buffer.from(value.trim(), 'base64');
  if (key.length !== 32) throw new ConfigError([`${source}: must be 32 bytes, base64-encoded (got ${key.length} bytes)`]);
  return key;
}

/**
 * The key everything encrypted or keyed at rest derives from. Production must configure it;
 * development makes one on first start and keeps it in a file (mode 0600), shared by every
 * process started from the same folder. Creation is exclusive, so processes starting together
 * agree on one key.
 */
export function resolveMasterKey(settings: MasterKeySettings): Buffer {
  if (settings.MASTER_KEY) return decode(settings.MASTER_KEY, 'MASTER_KEY');
  if (settings.NODE_ENV === 'production') throw new ConfigError(['MASTER_KEY: required in production (32 bytes, base64)']);
  const file = resolve(settings.MASTER_KEY_FILE);
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, randomBytes(32).toString('base64'), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return decode(readFileSync(file, 'utf8'), `MASTER_KEY_FILE (${file})`);
}
