import { IsInt, IsString, Max, Min } from 'class-validator';
import { decodeKeyList, loadConfig, resolveMasterKeys, type ServiceConfig } from '@platform/common';
import { KeyRing } from './key-ring.js';

/** The secrets feature's own settings (environment variables; README lists them). */
export class SecretsConfig {
  /**
   * Master keys that only unwrap (base64 of 32 bytes each, comma-separated): the key being
   * rotated away from, or, during a rolling rotation, the key about to become current. Kept for
   * configurations that predate MASTER_KEYS, whose keys after the first serve the same purpose.
   */
  @IsString()
  MASTER_KEY_PREVIOUS: string = '';

  /** How often data keys still wrapped by a previous master key are re-wrapped; 0: only at start. */
  @IsInt()
  @Min(0)
  @Max(86_400_000)
  SECRETS_REWRAP_INTERVAL_MS: number = 600_000;
}

export const SECRETS_CONFIG = Symbol('SECRETS_CONFIG');

export function loadSecretsConfig(env: Record<string, string | undefined> = process.env): SecretsConfig {
  return loadConfig(SecretsConfig, env);
}

/** Built once at start-up; a bad key stops the service with a clear message (ConfigError). */
export function buildKeyRing(service: ServiceConfig, own: SecretsConfig): KeyRing {
  const ring = resolveMasterKeys(service);
  return new KeyRing(ring.current, [...ring.previous, ...decodeKeyList(own.MASTER_KEY_PREVIOUS, 'MASTER_KEY_PREVIOUS')]);
}
