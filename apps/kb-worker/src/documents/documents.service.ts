import { Inject, Injectable, Logger } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Principal } from '@platform/auth';
import { decodeCursor, newId, publicUrlProblem, toPage, type Page } from '@platform/common';
import { TenantDb, type TenantContext } from '@platform/db';
import { KbWorkerSubjects, NATS_CONNECTION, enqueueWork, messageContext, type KbIndexItem } from '@platform/messaging';
import { KB_CONFIG, type KbConfig } from '../config/kb.config.js';
import { CONTENT_TYPES, detectFormat, isKnownContentType } from './extract.js';
import { KnowledgeBaseErrors, changeableKnowledgeBase, visibleKnowledgeBase } from '../knowledge-bases/index.js';
import { toDocumentResponse, type DocumentResponse, type DocumentSource } from './document.record.js';
import { DocumentErrors } from './documents.errors.js';
import { documentsRepository } from './documents.repository.js';
import type { AddDocumentRequestDto, ListDocumentsQueryDto } from './dto/document.request.dto.js';

/** Documents of a knowledge base: accepted (stored, then queued for indexing), listed, deleted and re-indexed. */
@Injectable()
export class DocumentsService {
  private readonly logger = new Logger(DocumentsService.name);

  constructor(
    private readonly db: TenantDb,
    @Inject(KB_CONFIG) private readonly config: KbConfig,
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
  ) {}

  async add(p: Principal, kbId: string, dto: AddDocumentRequestDto): Promise<{ id: string; status: 'queued' }> {
    const given = (['text', 'content_base64', 'file_id', 'url'] as const).filter((f) => dto[f] !== undefined);
    if (given.length !== 1) throw DocumentErrors.invalid('text', 'give exactly one of text, content_base64, file_id and url');
    if (dto.content_type && !isKnownContentType(dto.content_type))
      throw DocumentErrors.invalid('content_type', 'must be text/plain, text/markdown, text/html or application/pdf');
    if (dto.url) {
      const problem = publicUrlProblem(dto.url);
      if (problem) throw DocumentErrors.invalid('url', problem);
    }
    let content: Buffer | null = null;
    let source: DocumentSource = { type: 'upload' };
    if (dto.text !== undefined) content = Buffer.from(dto.text, 'utf8');
    else if (dto.content_base64 !== undefined) content = Buffer.from(dto.content_base64, 'base64');
    else if (dto.file_id) source = { type: 'file', file_id: dto.file_id };
    else if (dto.url) source = { type: 'url', url: dto.url };
    if (content && content.length > this.config.KB_MAX_DOCUMENT_BYTES)
      throw DocumentErrors.invalid(given[0], `is larger than the limit of ${this.config.KB_MAX_DOCUMENT_BYTES} bytes`);
    const name = dto.name ?? (source.type === 'url' ? decodeURIComponent(new URL(source.url).pathname.split('/').pop() || 'document') : 'document');
    const contentType = dto.content_type ?? (content ? CONTENT_TYPES[detectFormat(null, name, content)] : null);

    const row = await this.db.run(p, async (m) => {
      await changeableKnowledgeBase(m, p, kbId);
      return documentsRepository.insert(m, {
        tenantId: p.tenantId,
        environmentId: p.environmentId,
        scopeId: p.scopeId,
        id: newId(),
        knowledgeBaseId: kbId,
        name,
        contentType,
        source,
        content,
        metadata: dto.metadata ?? {},
      });
    });
    await this.enqueue(p, row.id, row.generation);
    return { id: row.id, status: 'queued' };
  }

  async list(p: Principal, kbId: string, q: ListDocumentsQueryDto): Promise<Page<DocumentResponse>> {
    const after = decodeCursor(q.cursor, { id: 'uuid' });
    const rows = await this.db.run(p, async (m) => {
      if (!(await visibleKnowledgeBase(m, kbId))) throw KnowledgeBaseErrors.notFound();
      return documentsRepository.list(m, kbId, { status: q.status, afterId: after?.id ?? null, limit: q.limit });
    });
    return toPage(rows, q.limit, toDocumentResponse, (r) => ({ id: r.id }));
  }

  async get(p: Principal, kbId: string, id: string): Promise<DocumentResponse> {
    const row = await this.db.run(p, (m) => documentsRepository.get(m, kbId, id));
    if (!row) throw DocumentErrors.notFound();
    return toDocumentResponse(row);
  }

  /** Deletes the document and its chunks (cascade): they leave every later query at once. */
  async delete(p: Principal, kbId: string, id: string): Promise<void> {
    const deleted = await this.db.run(p, async (m) => {
      await changeableKnowledgeBase(m, p, kbId);
      return documentsRepository.delete(m, kbId, id);
    });
    if (!deleted) throw DocumentErrors.notFound();
  }

  async reindex(p: Principal, kbId: string, id: string): Promise<{ id: string; status: 'queued' }> {
    const row = await this.db.run(p, async (m) => {
      await changeableKnowledgeBase(m, p, kbId);
      return documentsRepository.requeue(m, kbId, id);
    });
    if (!row) throw DocumentErrors.notFound();
    await this.enqueue(p, row.id, row.generation);
    return { id: row.id, status: 'queued' };
  }

  /**
   * After the commit: the row is the truth and the work item only a wake-up, so a publish that
   * fails is left to the reconciler (the document stays queued and is picked up within a minute).
   */
  async enqueue(ctx: TenantContext, id: string, generation: number, attempt = 0): Promise<void> {
    const item: KbIndexItem = { documentId: id, generation };
    await enqueueWork(this.nc, KbWorkerSubjects.index, item, `${id}:${generation}:${attempt}`, messageContext(ctx)).catch((error: unknown) =>
      this.logger.warn(`document ${id} not queued now (the reconciler will): ${String(error)}`),
    );
  }
}
