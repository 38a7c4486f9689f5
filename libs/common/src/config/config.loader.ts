import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

function describe(error: ValidationError, env: Record<string, unknown>): string {
  const value = env[error.property];
  const shown = value === undefined ? 'not set' : `got '${typeof value === 'string' ? value : JSON.stringify(value)}'`;
  const rules = Object.values(error.constraints ?? {})
    .map((rule) => (rule.startsWith(`${error.property} `) ? rule.slice(error.property.length + 1) : rule))
    .join('; ');
  return `${error.property}: ${rules} (${shown})`;
}

/**
 * Reads settings from the environment into a typed, validated object. Property names are the
 * environment variable names; initial values are the defaults. Every problem is reported at
 * once, so a misconfigured deployment is fixed in one pass.
 */
export function loadConfig<T extends object>(
  type: new () => T,
  env: Record<string, string | undefined> = process.env,
  overrides: Partial<Record<keyof T, unknown>> = {},
): T {
  const defaults = new type() as Record<string, unknown>;
  const present: Record<string, unknown> = {};
  for (const key of Object.keys(defaults)) {
    const raw = env[key];
    if (raw !== undefined && raw !== '') present[key] = raw;
    else if (key in overrides) present[key] = (overrides as Record<string, unknown>)[key];
  }
  const config = plainToInstance(type, { ...defaults, ...present }, { enableImplicitConversion: true });
  const errors = validateSync(config as object, { skipMissingProperties: false, forbidUnknownValues: false });
  if (errors.length) throw new ConfigError(errors.map((e) => describe(e, env)));
  return config;
}
