import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { rpcError, validatePayload } from '@platform/common';
import { StorageSubjects, hasTenant, type Envelope, type ResolveSecretsResponse } from '@platform/messaging';
import { ResolveSecretsPayload } from './dto/resolve-secrets.payload.js';
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
  resolve(@Payload() message: Envelope<unknown>): Promise<ResolveSecretsResponse> {
    const context = message?.context;
    if (!context || !hasTenant(context)) throw rpcError(400, 'tenant_required', 'The message carries no tenant context');
    const { names, purpose } = validatePayload(ResolveSecretsPayload, message.data);
    return this.secrets.resolve(
      { tenantId: context.tenantId, environmentId: context.environmentId, purpose, actor: context.actor ?? null, requestId: context.requestId || null },
      names,
    );
  }
}
