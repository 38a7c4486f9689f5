import { IsInt, Max, Min } from 'class-validator';
import { ServiceConfig } from '@platform/common';

/** The account service's own settings, on top of every service's. */
export class AccountConfig extends ServiceConfig {
  /** How often keys past their expiry date are marked expired. */
  @IsInt()
  @Min(100)
  @Max(3_600_000)
  KEY_EXPIRY_SWEEP_MS: number = 30_000;
}
