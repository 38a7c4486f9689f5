import { Injectable } from '@nestjs/common';
import { forbidden, type Principal } from '@platform/auth';
import { ValidationFailedError } from '@platform/common';
import { TenantDb, type TenantContext } from '@platform/db';
import { channelExists } from '../channels/index.js';
import type { PutNoticeSettingsRequestDto } from './dto/notice-settings.dto.js';
import { toNoticeSettingsResponse, type NoticeSettings, type NoticeSettingsResponse, type NoticeTarget } from './notice-settings.record.js';
import { noticeSettingsRepository } from './notice-settings.repository.js';

/** The environment's own business: a customer key (or a key narrowed to a customer) cannot see or route the platform's notices. */
function tenantOnly(p: Principal): void {
  if (p.scopeId) throw forbidden();
}

/** Where the platform's notices of a tenant environment go (`GET/PUT /notifications/notices`). */
@Injectable()
export class NoticeSettingsService {
  constructor(private readonly db: TenantDb) {}

  async get(p: Principal): Promise<NoticeSettingsResponse> {
    tenantOnly(p);
    return toNoticeSettingsResponse(await this.db.run(p, (m) => noticeSettingsRepository.get(m)));
  }

  /** Replaces the settings; every channel named must be one of the environment's (another tenant's is as unknown). */
  async put(p: Principal, dto: PutNoticeSettingsRequestDto): Promise<NoticeSettingsResponse> {
    tenantOnly(p);
    const settings: NoticeSettings = {
      api_key_expiring: dto.api_key_expiring ? { channel_id: dto.api_key_expiring.channel_id, to: dto.api_key_expiring.to } : null,
    };
    const row = await this.db.run(p, async (m) => {
      for (const [name, target] of Object.entries(settings) as [string, NoticeTarget | null][]) {
        if (target && !(await channelExists(m, target.channel_id)))
          throw new ValidationFailedError([{ field: `${name}.channel_id`, message: 'no channel with this id' }]);
      }
      return noticeSettingsRepository.put(m, p, settings);
    });
    return toNoticeSettingsResponse(row);
  }

  /** The target of one notice in an environment, for the platform's own sends (a tenant-wide context). */
  async target(ctx: TenantContext, notice: keyof NoticeSettings): Promise<NoticeTarget | null> {
    const row = await this.db.run(ctx, (m) => noticeSettingsRepository.get(m));
    return toNoticeSettingsResponse(row)[notice];
  }
}
