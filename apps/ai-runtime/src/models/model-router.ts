import { Inject, Injectable } from '@nestjs/common';
import { classifyAddress, resolveHost, systemResolver } from '@platform/common';
import type { TenantContext } from '@platform/db';
import type { ModelInfo } from '@platform/messaging';
import { AI_CONFIG, type AiConfig } from '../config/ai.config.js';
import { ProvidersService, type OpenProvider } from '../providers/providers.service.js';
import { LOCAL_CHAT_MODEL, LOCAL_EMBEDDING_MODEL, LOCAL_PROVIDER, LocalProvider } from './local/local.provider.js';
import { OpenAiProvider } from './openai.provider.js';
import type { LlmProvider } from './provider.js';
import { ModelErrors } from './provider.errors.js';

export interface ResolvedModel {
  /** `<provider>/<model>` as the caller named it. */
  id: string;
  /** The provider's own model id. */
  model: string;
  kind: 'chat' | 'embedding';
  provider: LlmProvider;
}

const LOCAL_MODELS: ModelInfo[] = [
  {
    id: LOCAL_CHAT_MODEL,
    provider: LOCAL_PROVIDER,
    kind: 'chat',
    description: 'Built-in, offline: answers with an extractive summary of its input (sentences copied from it, marked as such); never calls tools',
  },
  {
    id: LOCAL_EMBEDDING_MODEL,
    provider: LOCAL_PROVIDER,
    kind: 'embedding',
    description: 'Built-in, offline: deterministic feature-hashing embedding of words, word pairs and character trigrams; 384 dimensions, L2-normalised',
  },
];

/** Names a model (`local/…` or `<tenant provider>/<model id>`) and finds the provider that runs it. */
@Injectable()
export class ModelRouter {
  private readonly local = new LocalProvider();

  constructor(
    private readonly providers: ProvidersService,
    @Inject(AI_CONFIG) private readonly config: AiConfig,
  ) {}

  async list(ctx: TenantContext): Promise<ModelInfo[]> {
    const providers = await this.providers.opened(ctx);
    const configured = [...providers.values()].flatMap(({ row }) =>
      row.models.map((m) => ({ id: `${row.name}/${m.id}`, provider: row.name, kind: m.kind, description: `${m.id} at ${new URL(row.base_url).host}` })),
    );
    return [...LOCAL_MODELS, ...configured];
  }

  async resolve(ctx: TenantContext, id: string, kind: 'chat' | 'embedding', field = 'model'): Promise<ResolvedModel> {
    const slash = id.indexOf('/');
    if (slash <= 0) throw ModelErrors.unknownModel(field, id);
    const providerName = id.slice(0, slash);
    const model = id.slice(slash + 1);
    if (providerName === LOCAL_PROVIDER) {
      const known = LOCAL_MODELS.find((m) => m.id === id);
      if (!known) throw ModelErrors.unknownModel(field, id);
      this.checkKind(field, id, known.kind, kind);
      return { id, model, kind: known.kind, provider: this.local };
    }
    const open = (await this.providers.opened(ctx)).get(providerName);
    const entry = open?.row.models.find((m) => m.id === model);
    if (!open || !entry) throw ModelErrors.unknownModel(field, id);
    this.checkKind(field, id, entry.kind, kind);
    await this.checkAddress(open);
    return { id, model, kind: entry.kind, provider: this.client(open) };
  }

  private checkKind(field: string, id: string, actual: 'chat' | 'embedding', wanted: 'chat' | 'embedding'): void {
    if (actual === wanted) return;
    throw wanted === 'chat' ? ModelErrors.notChatModel(field, id) : ModelErrors.notEmbeddingModel(field, id);
  }

  /**
   * The SSRF rule of http.request for tenant-given base URLs: every address of the host must be
   * globally routable unless AI_ALLOW_PRIVATE_NETWORKS (on-premise model servers).
   */
  private async checkAddress(open: OpenProvider): Promise<void> {
    if (this.config.AI_ALLOW_PRIVATE_NETWORKS) return;
    const host = new URL(open.row.base_url).hostname;
    const addresses = await resolveHost(host, systemResolver, AbortSignal.timeout(5000)).catch(() => []);
    if (!addresses.length) throw ModelErrors.blockedAddress(`${host} does not resolve`);
    for (const { address } of addresses) {
      const verdict = classifyAddress(address);
      if (!verdict.allowed) throw ModelErrors.blockedAddress(`${host} is a ${verdict.range} address`);
    }
  }

  private client(open: OpenProvider): LlmProvider {
    return new OpenAiProvider({
      baseUrl: open.row.base_url,
      apiKey: open.apiKey,
      apiKeyHeader: open.row.api_key_header,
      timeoutMs: this.config.AI_PROVIDER_TIMEOUT_MS,
    });
  }
}
