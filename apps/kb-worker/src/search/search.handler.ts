import { Controller } from '@nestjs/common';
import { isUuid } from '@platform/common';
import { MessagePattern } from '@nestjs/microservices';
import { KbQueryRequest, KbWorkerSubjects, TenantPayload, type KbQueryResult, type TenantMessage } from '@platform/messaging';
import { KnowledgeBaseErrors } from '../knowledge-bases/knowledge-bases.errors.js';
import { SearchService } from './search.service.js';

/** KB queries over NATS: the `kb.query` step and agents' knowledge-base tools. */
@Controller()
export class SearchHandler {
  constructor(private readonly search: SearchService) {}

  @MessagePattern(KbWorkerSubjects.query)
  query(@TenantPayload(KbQueryRequest) { tenant, body }: TenantMessage<KbQueryRequest>): Promise<KbQueryResult> {
    const f = body.filter ?? {};
    const ids = f.document_ids;
    if (ids !== undefined && (!Array.isArray(ids) || ids.some((x) => !isUuid(x))))
      throw KnowledgeBaseErrors.invalid('filter.document_ids', 'must be a list of document ids (UUIDs)');
    return this.search.query(tenant, body.knowledgeBaseId, {
      query: body.query,
      topK: body.topK,
      answer: body.answer,
      filter: {
        documentIds: ids as string[] | undefined,
        contentType: typeof f.content_type === 'string' ? f.content_type : undefined,
        metadata: f.metadata && typeof f.metadata === 'object' ? (f.metadata as Record<string, unknown>) : undefined,
      },
    });
  }
}
