import { Controller } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { AccountSubjects, DirectoryCheckRequest, TenantPayload, type DirectoryCheckResponse, type TenantMessage } from '@platform/messaging';
import { DirectoryService } from './directory.service.js';

@Controller()
export class DirectoryHandler {
  constructor(private readonly directory: DirectoryService) {}

  /** The task service checks assignees and completers against the tenant's users and teams. */
  @MessagePattern(AccountSubjects.directoryCheck)
  async check(@TenantPayload(DirectoryCheckRequest) { tenant, body }: TenantMessage<DirectoryCheckRequest>): Promise<DirectoryCheckResponse> {
    return { ok: await this.directory.check(tenant, body) };
  }
}
