import { Type } from 'class-transformer';
import { IsInt, IsNotEmptyObject, IsOptional, IsString, Matches, Max, Min, ValidateIf, ValidateNested } from 'class-validator';
import type { UsageMetric } from '@platform/messaging';

class RateLimitsDto {
  @IsInt()
  @Min(1)
  live!: number;

  @IsInt()
  @Min(1)
  test!: number;

  @IsInt()
  @Min(1)
  user!: number;
}

class NotificationLimitsDto {
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  per_minute!: number;

  @IsInt()
  @Min(1)
  @Max(100_000_000)
  per_day!: number;
}

class QuotaTermsDto {
  @IsInt()
  @Min(0)
  included!: number;

  @ValidateIf((_o, value) => value !== null)
  @IsInt()
  @Min(0)
  limit!: number | null;

  @IsInt()
  @Min(0)
  unit_price_minor!: number;

  @IsInt()
  @Min(1)
  per!: number;
}

class QuotasDto implements Record<UsageMetric, QuotaTermsDto> {
  @ValidateNested() @Type(() => QuotaTermsDto) runs!: QuotaTermsDto;
  @ValidateNested() @Type(() => QuotaTermsDto) ai_tokens!: QuotaTermsDto;
  @ValidateNested() @Type(() => QuotaTermsDto) storage_bytes!: QuotaTermsDto;
  @ValidateNested() @Type(() => QuotaTermsDto) notifications!: QuotaTermsDto;
  @ValidateNested() @Type(() => QuotaTermsDto) active_workflows!: QuotaTermsDto;
  @ValidateNested() @Type(() => QuotaTermsDto) seats!: QuotaTermsDto;
}

/** A plan file for `admin:plans add`: the same shape as the seeded plans (see docs/subscription.md). */
export class PlanFileDto {
  @IsString()
  @Matches(/^[a-z0-9][a-z0-9_-]{0,39}$/)
  code!: string;

  @IsString()
  @Matches(/\S/)
  name!: string;

  @Matches(/^[A-Z]{3}$/, { message: 'currency must be an ISO 4217 code such as USD' })
  currency!: string;

  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  base_price_minor!: number;

  @IsNotEmptyObject()
  @ValidateNested()
  @Type(() => RateLimitsDto)
  rate_limits!: RateLimitsDto;

  @IsNotEmptyObject()
  @ValidateNested()
  @Type(() => QuotasDto)
  quotas!: QuotasDto;

  /** Notifications per minute and per UTC day for each tenant environment; left out, the notification service's settings apply. */
  @IsOptional()
  @ValidateNested()
  @Type(() => NotificationLimitsDto)
  notification_limits?: NotificationLimitsDto;
}
