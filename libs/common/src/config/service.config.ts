import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsString, Matches, Max, Min } from 'class-validator';

/**
 * Reads the raw setting: implicit conversion has already turned 'false' into Boolean('false'),
 * i.e. true, by the time `value` arrives. Anything but a known spelling stays a string and fails
 * validation.
 */
export const toBoolean = ({ obj, key }: { obj: Record<string, unknown>; key: string }): unknown => {
  const raw = obj[key];
  if (typeof raw === 'boolean') return raw;
  const text = String(raw).toLowerCase();
  if (['true', '1', 'yes'].includes(text)) return true;
  if (['false', '0', 'no'].includes(text)) return false;
  return raw;
};

/** Settings every service reads. Names are the environment variables (README lists them). */
export class ServiceConfig {
  @IsString()
  HOST: string = '127.0.0.1';

  @IsInt()
  @Min(1)
  @Max(65535)
  PORT: number = 0;

  @Matches(/^postgres(ql)?:\/\/\S+$/, { message: 'must be a postgres:// URL' })
  DATABASE_URL: string = 'postgres://postgres@127.0.0.1:5432/platform';

  @Matches(/^(nats|tls):\/\/\S+$/, { message: 'must be a nats:// URL' })
  NATS_URL: string = 'nats://127.0.0.1:4222';

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL: string = 'info';

  @Transform(toBoolean)
  @IsBoolean()
  DOCS_PUBLIC: boolean = false;

  @IsInt()
  @Min(0)
  @Max(600_000)
  SHUTDOWN_TIMEOUT_MS: number = 10_000;

  @IsInt()
  @Min(1024)
  BODY_LIMIT_BYTES: number = 10 * 1024 * 1024;

  @IsInt()
  @Min(1)
  @Max(200)
  DATABASE_POOL_SIZE: number = 10;

  @IsIn(['development', 'production', 'test'])
  NODE_ENV: string = 'development';
}
