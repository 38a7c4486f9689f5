import { Body, Controller, Get, HttpCode, Post, Query, Res } from '@nestjs/common';
import { ApiBadGatewayResponse, ApiGatewayTimeoutResponse, ApiOkResponse, ApiOperation, ApiProduces, ApiTooManyRequestsResponse } from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentPrincipal, RequireScopes, type Principal } from '@platform/auth';
import { pageOfList, type Page } from '@platform/common';
import type { ModelInfo } from '@platform/messaging';
import { ApiPageResponse, ApiTag, PageQueryDto } from '@platform/service';
import { ModelRouter } from '../models/model-router.js';
import type { ChatCall } from '../models/provider.js';
import { CompletionsService, type Caller } from './completions.service.js';
import { ChatRequestDto, EmbeddingsRequestDto, GenerateRequestDto } from './dto/completion.request.dto.js';
import {
  CHAT_EXAMPLE,
  ChatResponseDto,
  EMBEDDINGS_EXAMPLE,
  EmbeddingsResponseDto,
  GENERATE_EXAMPLE,
  GenerateResponseDto,
  MODELS_EXAMPLE,
  ModelDto,
  SSE_EXAMPLE,
} from './dto/completion.response.dto.js';
import { writeEventStream } from './sse.js';

const caller = (p: Principal): Caller => ({ tenantId: p.tenantId, environmentId: p.environmentId, scopeId: p.scopeId, keyMode: p.keyMode });

const PROVIDER_ERRORS = [
  ApiBadGatewayResponse({ description: 'The model provider failed or refused' }),
  ApiGatewayTimeoutResponse({ description: 'The model provider did not answer in time' }),
  ApiTooManyRequestsResponse({ description: 'The model provider is limiting requests (its Retry-After is passed on)' }),
];
const providerErrors = (): MethodDecorator => (target, key, descriptor) => {
  for (const d of PROVIDER_ERRORS) d(target, key, descriptor);
};

/** Text generation, chat and embeddings on the tenant's models. */
@ApiTag('ai', 'LLM execution: generate, chat (with tools, optionally streamed as server-sent events), embeddings, and the models configured for the tenant.')
@Controller('ai')
export class CompletionsController {
  constructor(
    private readonly completions: CompletionsService,
    private readonly router: ModelRouter,
  ) {}

  @Get('models')
  @RequireScopes('ai:run')
  @ApiOperation({
    summary: 'List models',
    description: 'The built-in local models and those of the providers configured for the tenant environment; by id, cursor-paginated.',
  })
  @ApiPageResponse(ModelDto, { description: 'A page of models, by id (`<provider>/<model>`)', example: { ...MODELS_EXAMPLE, next_cursor: null } })
  async models(@CurrentPrincipal() p: Principal, @Query() q: PageQueryDto): Promise<Page<ModelInfo>> {
    return pageOfList(await this.router.list(p), q, 'model', (m) => m.id);
  }

  @Post('generate')
  @HttpCode(200)
  @RequireScopes('ai:run')
  @ApiOperation({
    summary: 'Generate text with an LLM',
    description:
      'One completion of `prompt` (after `system`). With `stream: true` the answer is `text/event-stream`: `delta` events, then `done` with the usage.',
  })
  @ApiProduces('application/json', 'text/event-stream')
  @ApiOkResponse({ type: GenerateResponseDto, example: GENERATE_EXAMPLE, description: `JSON, or with stream: true events such as:\n\n${SSE_EXAMPLE}` })
  @providerErrors()
  async generate(@CurrentPrincipal() p: Principal, @Body() b: GenerateRequestDto, @Res() res: Response): Promise<void> {
    const call = this.completions.generateCall({
      model: b.model,
      prompt: b.prompt,
      system: b.system,
      maxTokens: b.max_tokens,
      temperature: b.temperature,
      responseFormat: b.response_format,
    });
    if (b.stream) return this.stream(p, call, res);
    res.status(200).json(
      await this.completions.generate(caller(p), {
        model: b.model,
        prompt: b.prompt,
        system: b.system,
        maxTokens: b.max_tokens,
        temperature: b.temperature,
        responseFormat: b.response_format,
      }),
    );
  }

  @Post('chat')
  @HttpCode(200)
  @RequireScopes('ai:run')
  @ApiOperation({
    summary: 'Chat conversation',
    description:
      'One assistant turn for `messages`; with `tools` the model may answer with `tool_calls` instead of text (send their results back as `tool` messages). `stream: true` answers as server-sent events.',
  })
  @ApiProduces('application/json', 'text/event-stream')
  @ApiOkResponse({ type: ChatResponseDto, example: CHAT_EXAMPLE })
  @providerErrors()
  async chat(@CurrentPrincipal() p: Principal, @Body() b: ChatRequestDto, @Res() res: Response): Promise<void> {
    const call: ChatCall = {
      model: b.model,
      messages: b.messages.map((m) => ({ ...m })),
      tools: b.tools?.map((t) => ({ type: 'function', function: { ...t.function } })),
      maxTokens: b.max_tokens,
      temperature: b.temperature,
      responseFormat: b.response_format,
    };
    if (b.stream) return this.stream(p, call, res);
    res.status(200).json(await this.completions.chat(caller(p), call));
  }

  @Post('embeddings')
  @HttpCode(200)
  @RequireScopes('ai:run')
  @ApiOperation({
    summary: 'Generate embeddings',
    description: 'One vector per input text; `local/hash-embedding-384` unless `model` names another embedding model.',
  })
  @ApiOkResponse({ type: EmbeddingsResponseDto, example: EMBEDDINGS_EXAMPLE })
  @providerErrors()
  async embeddings(@CurrentPrincipal() p: Principal, @Body() b: EmbeddingsRequestDto) {
    const result = await this.completions.embeddings(caller(p), { model: b.model, input: b.input });
    return {
      model: result.model,
      dimensions: result.dimensions,
      data: result.embeddings.map((embedding, index) => ({ index, embedding })),
      usage: result.usage,
    };
  }

  private async stream(p: Principal, call: ChatCall, res: Response): Promise<void> {
    const { model, events } = await this.completions.stream(caller(p), call);
    await writeEventStream(res, model, events);
  }
}
