import { Controller } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import {
  AiRuntimeSubjects,
  ChatRequest,
  EmbeddingsRequest,
  GenerateRequest,
  ModelsListRequest,
  TenantPayload,
  type ChatResult,
  type EmbeddingsResult,
  type GenerateResult,
  type ModelsList,
  type TenantMessage,
} from '@platform/messaging';
import { ModelRouter } from '../models/model-router.js';
import { CompletionsService } from './completions.service.js';

/** The same operations over NATS: workflow steps (`ai.generate`, `ai.chat`, `ai.embed`), the KB worker, the catalog. */
@Controller()
export class CompletionsHandler {
  constructor(
    private readonly completions: CompletionsService,
    private readonly router: ModelRouter,
  ) {}

  @MessagePattern(AiRuntimeSubjects.generate)
  generate(@TenantPayload(GenerateRequest) { tenant, body }: TenantMessage<GenerateRequest>): Promise<GenerateResult> {
    return this.completions.generate(tenant, body);
  }

  @MessagePattern(AiRuntimeSubjects.chat)
  chat(@TenantPayload(ChatRequest) { tenant, body }: TenantMessage<ChatRequest>): Promise<ChatResult> {
    return this.completions.chat(tenant, this.completions.chatCall(body));
  }

  @MessagePattern(AiRuntimeSubjects.embeddings)
  embeddings(@TenantPayload(EmbeddingsRequest) { tenant, body }: TenantMessage<EmbeddingsRequest>): Promise<EmbeddingsResult> {
    return this.completions.embeddings(tenant, body);
  }

  @MessagePattern(AiRuntimeSubjects.modelsList)
  async models(@TenantPayload(ModelsListRequest) { tenant, body }: TenantMessage<ModelsListRequest>): Promise<ModelsList> {
    const models = await this.router.list(tenant);
    return { data: body.kind ? models.filter((m) => m.kind === body.kind) : models };
  }
}
