import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, Max, Min } from 'class-validator';
import { SERVICE_TIME_LIMITS, loadConfig, toBoolean } from '@platform/common';

/** The AI runtime's own settings (environment variables). */
export class AiConfig {
  /** Let tenant providers point at private, loopback and link-local addresses (on-premise vLLM/Ollama, tests). */
  @Transform(toBoolean)
  @IsBoolean()
  AI_ALLOW_PRIVATE_NETWORKS: boolean = false;

  /** How long one provider call may take before it is answered 504 (the gateway waits this long plus a margin on the AI routes). */
  @IsInt()
  @Min(500)
  @Max(600_000)
  AI_PROVIDER_TIMEOUT_MS: number = SERVICE_TIME_LIMITS.AI_PROVIDER_TIMEOUT_MS;

  /** Model and tool calls one agent run may make at most. */
  @IsInt()
  @Min(1)
  @Max(200)
  AI_AGENT_MAX_STEPS: number = 12;

  /** Wall-clock budget of one agent run (approval waits included). */
  @IsInt()
  @Min(1000)
  @Max(86_400_000)
  AI_AGENT_TIME_BUDGET_MS: number = SERVICE_TIME_LIMITS.AI_AGENT_TIME_BUDGET_MS;
}

export const AI_CONFIG = Symbol('AI_CONFIG');

export function loadAiConfig(env: Record<string, string | undefined> = process.env): AiConfig {
  return loadConfig(AiConfig, env);
}
