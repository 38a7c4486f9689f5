import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SERVICE_NAMES } from '@platform/common';
import { REPO_ROOT } from '@platform/launcher';

/**
 * Which secret settings each process reads, found in its code rather than listed by hand, so the
 * deployment files' per-service Secrets cannot drift from what the services need: a service that
 * starts using the system role or the master key fails the deployment tests until its Secret
 * holds the password or its pod mounts the key.
 */
export type SecretSetting =
  | 'DATABASE_APP_PASSWORD'
  | 'DATABASE_SYSTEM_PASSWORD'
  | 'DATABASE_OWNER_PASSWORD'
  | 'DATABASE_URL'
  | 'PLATFORM_ADMIN_TOKEN'
  | 'REDIS_URL'
  | 'S3_ACCESS_KEY_ID'
  | 'S3_SECRET_ACCESS_KEY'
  | 'MASTER_KEYS';

function sourceOf(app: string): string {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts') && !/\.(spec|int-spec|e2e-spec)\.ts$/.test(entry.name) && !path.includes('/cli/')) files.push(path);
    }
  };
  walk(join(REPO_ROOT, 'apps', app, 'src'));
  return files.map((file) => readFileSync(file, 'utf8')).join('\n');
}

/**
 * The secrets a process reads. Every service logs in as the application role; the system role's
 * password is read by those that use SystemDb or the usage outbox (which relays through it); the
 * admin token by those with `@SystemRoute` routes; the master key ring by those that call
 * `resolveMasterKeys`; REDIS_URL and the S3 keys by those that name them. The admin CLI (`cli/`)
 * is not a deployed process.
 */
export function secretsReadBy(app: string): SecretSetting[] {
  const code = sourceOf(app);
  const reads: SecretSetting[] = [];
  const isService = (SERVICE_NAMES as readonly string[]).includes(app);
  if (isService) reads.push('DATABASE_APP_PASSWORD');
  if (isService && /\bSystemDb\b|\bUsageOutbox\b/.test(code)) reads.push('DATABASE_SYSTEM_PASSWORD');
  if (/@SystemRoute\(/.test(code)) reads.push('PLATFORM_ADMIN_TOKEN');
  if (/\bREDIS_URL\b/.test(code)) reads.push('REDIS_URL');
  if (/\bS3_ACCESS_KEY_ID\b/.test(code)) reads.push('S3_ACCESS_KEY_ID');
  if (/\bS3_SECRET_ACCESS_KEY\b/.test(code)) reads.push('S3_SECRET_ACCESS_KEY');
  if (/\bresolveMasterKeys\(/.test(code)) reads.push('MASTER_KEYS');
  return reads;
}

/** The migrate job (scripts/db-setup.js): the admin URL, and the three role passwords it creates the roles with. */
export const MIGRATE_SECRETS: readonly SecretSetting[] = ['DATABASE_URL', 'DATABASE_APP_PASSWORD', 'DATABASE_OWNER_PASSWORD', 'DATABASE_SYSTEM_PASSWORD'];
