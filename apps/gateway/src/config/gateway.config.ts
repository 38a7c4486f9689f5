import { IsIn, IsInt, IsString, Max, Min } from 'class-validator';
import { ConfigError, SERVICE_NAMES, SERVICES, envStem, loadConfig, type ServiceName } from '@platform/common';

/** Gateway settings; the upstream of each service comes from `<NAME>_URL` (see upstreamUrls). */
export class GatewayConfig {
  @IsString()
  HOST: string = '127.0.0.1';

  @IsInt()
  @Min(1)
  @Max(65535)
  GATEWAY_PORT: number = 8080;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL: string = 'info';

  /** A service that has not answered by then gets the client a 504. */
  @IsInt()
  @Min(100)
  UPSTREAM_TIMEOUT_MS: number = 30_000;

  @IsInt()
  @Min(100)
  HEALTH_TIMEOUT_MS: number = 2_000;

  @IsInt()
  @Min(1024)
  BODY_LIMIT_BYTES: number = 10 * 1024 * 1024;

  @IsInt()
  @Min(1024)
  UPLOAD_LIMIT_BYTES: number = 100 * 1024 * 1024;

  @IsInt()
  @Min(0)
  SHUTDOWN_TIMEOUT_MS: number = 10_000;

  @IsIn(['development', 'production', 'test'])
  NODE_ENV: string = 'development';
}

export function loadGatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  return loadConfig(GatewayConfig, env);
}

/** `ACCOUNT_URL`, `AI_RUNTIME_URL`, …; each defaults to the service's port on this machine. */
export function upstreamUrls(env: NodeJS.ProcessEnv = process.env): Record<ServiceName, URL> {
  const urls = {} as Record<ServiceName, URL>;
  const problems: string[] = [];
  for (const name of SERVICE_NAMES) {
    const key = `${envStem(name)}_URL`;
    const raw = env[key] || `http://127.0.0.1:${SERVICES[name].port}`;
    try {
      const url = new URL(raw);
      if (url.protocol !== 'http:') throw new Error('protocol');
      urls[name] = url;
    } catch {
      problems.push(`${key}: must be an http:// URL (got '${raw}')`);
    }
  }
  if (problems.length) throw new ConfigError(problems);
  return urls;
}
