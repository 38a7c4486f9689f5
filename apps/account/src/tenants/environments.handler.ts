import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { SystemDb } from '@platform/db';
import { AccountSubjects, type Envelope, type ResolveEnvironmentRequest, type ResolveEnvironmentResponse } from '@platform/messaging';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

@Controller()
export class EnvironmentsHandler {
  constructor(private readonly system: SystemDb) {}

  /** A JWT caller's environment: the one named by X-SELECTED-ENV if it is the tenant's, else production. */
  @MessagePattern(AccountSubjects.environmentsResolve)
  async resolve(@Payload() message: Envelope<ResolveEnvironmentRequest>): Promise<ResolveEnvironmentResponse> {
    const { tenantId, environmentId } = message?.data ?? ({} as ResolveEnvironmentRequest);
    if (!UUID.test(String(tenantId)) || (environmentId !== undefined && !UUID.test(String(environmentId)))) return { found: false };
    const rows = (await this.system.run(
      'resolve the environment of a JWT caller',
      (m) =>
        m.query(
          `select e.id, e.mode from account.environments e join account.tenants t on t.id = e.tenant_id
            where e.tenant_id = $1 and t.status = 'active' and (($2::uuid is null and e.name = 'production') or e.id = $2)`,
          [tenantId, environmentId ?? null],
        ),
      'debug',
    )) as { id: string; mode: 'live' | 'test' }[];
    return rows[0] ? { found: true, environmentId: rows[0].id, mode: rows[0].mode } : { found: false };
  }
}
