import { Injectable } from '@nestjs/common';
import { isUuid } from '@platform/common';
import { SystemDb } from '@platform/db';
import type { ResolveEnvironmentRequest, ResolveEnvironmentResponse } from '@platform/messaging';
import { environmentsRepository } from './environments.repository.js';

/** Environments (data planes) as other services see them: a JWT caller's environment, on the system path. */
@Injectable()
export class EnvironmentsService {
  constructor(private readonly system: SystemDb) {}

  /** A JWT caller's environment: the one named by X-SELECTED-ENV if it is the tenant's, else production. */
  async resolve(request: ResolveEnvironmentRequest): Promise<ResolveEnvironmentResponse> {
    const { tenantId, environmentId } = request;
    if (!isUuid(tenantId) || (environmentId !== undefined && !isUuid(environmentId))) return { found: false };
    const row = await this.system.run(
      'resolve the environment of a JWT caller',
      (m) => environmentsRepository.resolve(m, tenantId, environmentId ?? null),
      'debug',
    );
    return row ? { found: true, environmentId: row.id, mode: row.mode } : { found: false };
  }
}
