import type { Sampler } from '@opentelemetry/sdk-trace-node';
import { ConfigError } from '../config/config.loader.js';

/**
 * OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG, checked at start-up. The SDK reads them too,
 * but a value it does not know only makes it log to a diagnostic logger nobody installed and keep
 * every trace: an operator who meant to sample 5 % would pay for 100 % without a word. So the
 * values are checked here (a bad one stops the process with the reason) and the sampler is built
 * from the SDK's own classes.
 */
export const TRACES_SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;

export type TracesSamplerName = (typeof TRACES_SAMPLERS)[number];

export interface TracesSamplerSetting {
  name: TracesSamplerName;
  /** The share of new traces kept, for the ratio samplers (1 when OTEL_TRACES_SAMPLER_ARG is unset). */
  ratio?: number;
}

const isSampler = (value: string): value is TracesSamplerName => (TRACES_SAMPLERS as readonly string[]).includes(value);

/** The sampler the environment asks for; a ConfigError naming each bad value otherwise. */
export function tracesSamplerSetting(env: NodeJS.ProcessEnv = process.env): TracesSamplerSetting {
  const rawName = env.OTEL_TRACES_SAMPLER?.trim() || 'parentbased_always_on';
  const rawArg = env.OTEL_TRACES_SAMPLER_ARG?.trim() || undefined;
  const problems: string[] = [];
  if (!isSampler(rawName)) {
    problems.push(`OTEL_TRACES_SAMPLER: got '${rawName}'; one of ${TRACES_SAMPLERS.join(', ')} (remote samplers such as jaeger_remote are not supported)`);
  }
  const ratioSampler = rawName.endsWith('traceidratio');
  let ratio: number | undefined;
  if (rawArg !== undefined) {
    ratio = Number(rawArg);
    if (!Number.isFinite(ratio) || ratio < 0 || ratio > 1) {
      problems.push(`OTEL_TRACES_SAMPLER_ARG: got '${rawArg}'; the share of traces kept, a number from 0 to 1 (e.g. 0.05 for 5 %)`);
    } else if (!ratioSampler) {
      problems.push(
        `OTEL_TRACES_SAMPLER_ARG: set to '${rawArg}', but OTEL_TRACES_SAMPLER '${rawName}' takes no argument; use traceidratio or parentbased_traceidratio to sample a share`,
      );
    }
  }
  if (problems.length) throw new ConfigError(problems);
  const name = rawName as TracesSamplerName;
  return ratioSampler ? { name, ratio: ratio ?? 1 } : { name };
}

type SamplerClasses = Pick<
  typeof import('@opentelemetry/sdk-trace-node'),
  'AlwaysOnSampler' | 'AlwaysOffSampler' | 'ParentBasedSampler' | 'TraceIdRatioBasedSampler'
>;

/** The SDK's sampler for a setting (the SDK module is passed in: it is loaded only when tracing is on). */
export function buildTracesSampler(setting: TracesSamplerSetting, sdk: SamplerClasses): Sampler {
  const root = (name: string): Sampler => {
    if (name.endsWith('always_off')) return new sdk.AlwaysOffSampler();
    if (name.endsWith('traceidratio')) return new sdk.TraceIdRatioBasedSampler(setting.ratio ?? 1);
    return new sdk.AlwaysOnSampler();
  };
  // Parent-based: a span with a parent follows the parent's decision (a sampled caller's trace is
  // kept whole, through every service); only the root's sampler decides for new traces.
  return setting.name.startsWith('parentbased_') ? new sdk.ParentBasedSampler({ root: root(setting.name) }) : root(setting.name);
}
