import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScopes, type Principal } from '@platform/auth';
import { AiRuntimeSubjects, Bus, messageContext, type ModelsList } from '@platform/messaging';
import { ApiTag } from '@platform/service';

/** The LLM models the tenant can use, as the AI runtime reports them. */
@ApiTag('llm-models', 'LLM and embedding models available to the tenant: the built-in local models and those of its configured providers (POST /ai/providers).')
@Controller('catalog/llm-models')
export class LlmModelsController {
  constructor(private readonly bus: Bus) {}

  @Get()
  @RequireScopes('ai:run')
  @ApiOperation({
    summary: 'List LLM models',
    description:
      'Models of the providers configured for the environment, with the built-in local models, their kind (chat or embedding), context size and prices where known.',
  })
  @ApiOkResponse({
    description: 'Every model, `<provider>/<model>`',
    example: { data: [{ id: 'local/extractive-summary', provider: 'local', kind: 'chat', description: 'Built-in, offline: extractive summary' }] },
  })
  list(@CurrentPrincipal() p: Principal): Promise<ModelsList> {
    return this.bus.request(AiRuntimeSubjects.modelsList, {}, messageContext(p), { timeoutMs: 10_000 });
  }
}
