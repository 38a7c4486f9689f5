/** Where one kind of platform notice goes: a channel of the environment and, for email, its recipients. */
export interface NoticeTarget {
  channel_id: string;
  to?: string[];
}

/** The platform notices a tenant environment can route; each is off (null) until set. */
export interface NoticeSettings {
  api_key_expiring: NoticeTarget | null;
}

export interface NoticeSettingsRow {
  settings: Partial<NoticeSettings>;
  updated_at: Date;
}

export interface NoticeSettingsResponse extends NoticeSettings {
  /** When the settings were last changed; null while never set. */
  updated_at: string | null;
}

const target = (t: NoticeTarget | null | undefined): NoticeTarget | null => (t ? { channel_id: t.channel_id, ...(t.to?.length ? { to: t.to } : {}) } : null);

export function toNoticeSettingsResponse(row: NoticeSettingsRow | undefined): NoticeSettingsResponse {
  return { api_key_expiring: target(row?.settings.api_key_expiring), updated_at: row ? row.updated_at.toISOString() : null };
}
