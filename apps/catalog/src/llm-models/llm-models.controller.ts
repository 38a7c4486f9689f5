import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScopes, type Principal } from '@platform/auth';
import { pageOfList, type Page } from '@platform/common';
import { AiRuntimeSubjects, Bus, messageContext, type ModelInfo } from '@platform/messaging';
import { ApiPageResponse, ApiTag, PageQueryDto } from '@platform/service';
import { LlmModelDto, LLM_MODELS_EXAMPLE } from './dto/llm-model.response.dto.js';

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
      'Models of the providers configured for the environment, with the built-in local models, their kind (chat or embedding); by id, cursor-paginated.',
  })
  @ApiPageResponse(LlmModelDto, { description: 'A page of models, by id (`<provider>/<model>`)', example: LLM_MODELS_EXAMPLE })
  async list(@CurrentPrincipal() p: Principal, @Query() q: PageQueryDto): Promise<Page<ModelInfo>> {
    const models = await this.bus.request(AiRuntimeSubjects.modelsList, {}, messageContext(p), { timeoutMs: 10_000 });
    return pageOfList(models.data, q, 'model', (m) => m.id);
  }
}
