import { IsInt, Max, Min } from 'class-validator';
import { ServiceConfig } from '@platform/common';

/** The account service's own settings, on top of every service's. */
export class AccountConfig extends ServiceConfig {
  /** How often keys past their expiry date are marked expired. */
  @IsInt()
  @Min(100)
  @Max(3_600_000)
  KEY_EXPIRY_SWEEP_MS: number = 30_000;

  /** Active keys expiring within this many days are announced once (the `api_key_expiring` notice); 0 announces none. */
  @IsInt()
  @Min(0)
  @Max(365)
  KEY_EXPIRY_NOTICE_DAYS: number = 7;

  /** How often keys entering the notice window are looked for. */
  @IsInt()
  @Min(100)
  @Max(3_600_000)
  KEY_EXPIRY_NOTICE_INTERVAL_MS: number = 60_000;
}
