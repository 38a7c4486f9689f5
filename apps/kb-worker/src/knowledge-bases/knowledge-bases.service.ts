import { Injectable } from '@nestjs/common';
import type { Principal } from '@platform/auth';
import { decodeCursor, newId, toPage, type Page } from '@platform/common';
import { TenantDb, type TenantContext } from '@platform/db';
import { AiRuntimeSubjects, Bus, messageContext } from '@platform/messaging';
import { toKnowledgeBaseResponse, type KnowledgeBaseResponse, type KnowledgeBaseRow } from './knowledge-base.record.js';
import { KnowledgeBaseErrors } from './knowledge-bases.errors.js';
import { knowledgeBasesRepository } from './knowledge-bases.repository.js';
import type { CreateKnowledgeBaseRequestDto, ListKnowledgeBasesQueryDto, UpdateKnowledgeBaseRequestDto } from './dto/knowledge-base.request.dto.js';

export const DEFAULT_EMBEDDING_MODEL = 'local/hash-embedding-384';
export const DEFAULT_ANSWER_MODEL = 'local/extractive-summary';
const DEFAULT_CHUNKING = { size: 1000, overlap: 150 };

/** Knowledge bases of a tenant environment (tenant-wide, or owned by one customer). */
@Injectable()
export class KnowledgeBasesService {
  constructor(
    private readonly db: TenantDb,
    private readonly bus: Bus,
  ) {}

  async create(p: Principal, dto: CreateKnowledgeBaseRequestDto): Promise<KnowledgeBaseResponse> {
    const chunking = dto.chunking ?? DEFAULT_CHUNKING;
    checkChunking(chunking);
    const embeddingModel = dto.embedding_model ?? DEFAULT_EMBEDDING_MODEL;
    const answerModel = dto.answer_model ?? DEFAULT_ANSWER_MODEL;
    await this.checkModel(p, 'embedding_model', embeddingModel, 'embedding');
    await this.checkModel(p, 'answer_model', answerModel, 'chat');
    const row = await this.db.run(p, (m) =>
      knowledgeBasesRepository.insert(m, {
        tenantId: p.tenantId,
        environmentId: p.environmentId,
        scopeId: p.scopeId,
        id: newId(),
        name: dto.name,
        description: dto.description ?? null,
        embeddingModel,
        answerModel,
        chunkSize: chunking.size,
        chunkOverlap: chunking.overlap,
      }),
    );
    return toKnowledgeBaseResponse(row);
  }

  async list(p: Principal, q: ListKnowledgeBasesQueryDto): Promise<Page<KnowledgeBaseResponse>> {
    const after = decodeCursor(q.cursor, { id: 'uuid' });
    const rows = await this.db.run(p, (m) => knowledgeBasesRepository.list(m, after?.id ?? null, q.limit, q.name));
    return toPage(rows, q.limit, toKnowledgeBaseResponse, (r) => ({ id: r.id }));
  }

  async get(p: TenantContext, id: string): Promise<KnowledgeBaseResponse> {
    return toKnowledgeBaseResponse(await this.row(p, id));
  }

  async row(p: TenantContext, id: string): Promise<KnowledgeBaseRow> {
    const row = await this.db.run(p, (m) => knowledgeBasesRepository.get(m, id));
    if (!row) throw KnowledgeBaseErrors.notFound();
    return row;
  }

  async update(p: Principal, id: string, dto: UpdateKnowledgeBaseRequestDto): Promise<KnowledgeBaseResponse> {
    if (dto.chunking) checkChunking(dto.chunking);
    if (dto.answer_model) await this.checkModel(p, 'answer_model', dto.answer_model, 'chat');
    const row = await this.db.run(p, (m) =>
      knowledgeBasesRepository.update(m, id, {
        name: dto.name,
        description: dto.description,
        answerModel: dto.answer_model,
        chunkSize: dto.chunking?.size,
        chunkOverlap: dto.chunking?.overlap,
      }),
    );
    if (!row) throw KnowledgeBaseErrors.notFound();
    return toKnowledgeBaseResponse(row);
  }

  /** Deletes the knowledge base with its documents and chunks (cascading foreign keys). */
  async delete(p: Principal, id: string): Promise<void> {
    const deleted = await this.db.run(p, (m) => knowledgeBasesRepository.delete(m, id));
    if (!deleted) throw KnowledgeBaseErrors.notFound();
  }

  private async checkModel(ctx: TenantContext, field: string, model: string, kind: 'chat' | 'embedding'): Promise<void> {
    const models = await this.bus.request(AiRuntimeSubjects.modelsList, { kind }, messageContext(ctx), { timeoutMs: 10_000 });
    if (!models.data.some((m) => m.id === model))
      throw KnowledgeBaseErrors.invalid(field, `${model} is not an ${kind === 'chat' ? 'answer (chat)' : 'embedding'} model of this tenant (GET /ai/models)`);
  }
}

function checkChunking(chunking: { size: number; overlap: number }): void {
  if (chunking.overlap * 2 >= chunking.size) throw KnowledgeBaseErrors.invalid('chunking.overlap', 'must be less than half of chunking.size');
}
