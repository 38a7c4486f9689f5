import type { MigrationInterface, QueryRunner } from 'typeorm';
import { applyTenantRls } from '@platform/db';

/**
 * Where the platform's own notices of a tenant environment go (today `api_key_expiring`): one row
 * per environment holding `{ "<notice>": { channel_id, to? } }`, isolated by tenant and environment.
 */
export class NoticeSettings1766300002000 implements MigrationInterface {
  name = 'NoticeSettings1766300002000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`create table notification.notice_settings (
      tenant_id uuid not null,
      environment_id uuid not null,
      settings jsonb not null,
      updated_at timestamptz not null default now(),
      primary key (tenant_id, environment_id))`);
    await applyTenantRls(q, 'notification.notice_settings');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`drop table notification.notice_settings`);
  }
}
