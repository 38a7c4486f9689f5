import type { EntityManager } from 'typeorm';
import type { TenantContext } from '@platform/db';
import type { NoticeSettings, NoticeSettingsRow } from './notice-settings.record.js';

/** notification.notice_settings: one row per tenant environment; managers come from TenantDb (RLS). */
export const noticeSettingsRepository = {
  async get(m: EntityManager): Promise<NoticeSettingsRow | undefined> {
    const [row] = await m.query<NoticeSettingsRow[]>(`select settings, updated_at from notification.notice_settings`);
    return row;
  },

  async put(m: EntityManager, ctx: TenantContext, settings: NoticeSettings): Promise<NoticeSettingsRow> {
    const [row] = await m.query<NoticeSettingsRow[]>(
      `insert into notification.notice_settings (tenant_id, environment_id, settings) values ($1, $2, $3)
       on conflict (tenant_id, environment_id) do update set settings = excluded.settings, updated_at = now()
       returning settings, updated_at`,
      [ctx.tenantId, ctx.environmentId, JSON.stringify(settings)],
    );
    return row;
  },
};
