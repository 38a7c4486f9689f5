import { Controller } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { ResolveSecretsRequest, StorageSubjects, TenantPayload, type ResolveSecretsResponse, type TenantMessage } from '@platform/messaging';
import { SecretsService } from './secrets.service.js';

/**
 * `storage.secrets.resolve`, for the run and connection services only. NATS carries no caller
 * identity, so this subject must be restricted where NATS authorizes publishers (per-service NATS
 * users or accounts: only run and connection may publish to it); here every read is recorded with
 * its purpose and actor, and the purpose must name one of the two callers.
 */
@Controller()
export class SecretsHandler {
  constructor(private readonly secrets: SecretsService) {}

  @MessagePattern(StorageSubjects.secretsResolve)
  resolve(@TenantPayload(ResolveSecretsRequest) { tenant, context, body }: TenantMessage<ResolveSecretsRequest>): Promise<ResolveSecretsResponse> {
    return this.secrets.resolve({ ...tenant, purpose: body.purpose, actor: context.actor ?? null, requestId: context.requestId || null }, body.names);
  }
}
