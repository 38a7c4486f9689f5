import { IsInt, Max, Min } from 'class-validator';
import { IsRedisUrl, loadConfig } from '@platform/common';

/** The portal service's own settings (environment variables). */
export class PortalConfig {
  /** Redis for the public forms' submission limits (shared by every replica). */
  @IsRedisUrl()
  REDIS_URL: string = 'redis://127.0.0.1:6379';

  /** A signing key signs embed tokens for this many days, then the next one takes over; it keeps verifying until the longest token it signed has expired. */
  @IsInt()
  @Min(1)
  @Max(365)
  PORTAL_SIGNING_KEY_ROTATION_DAYS: number = 30;

  /** Form submissions one client address may make per minute to one tenant's public forms (each link has its own limit too). */
  @IsInt()
  @Min(1)
  @Max(100_000)
  PORTAL_FORM_LIMIT_PER_ADDRESS: number = 20;
}

export const PORTAL_CONFIG = Symbol('PORTAL_CONFIG');

export function loadPortalConfig(env: Record<string, string | undefined> = process.env): PortalConfig {
  return loadConfig(PortalConfig, env);
}
