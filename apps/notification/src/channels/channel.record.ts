import type { ChannelConfig, ChannelKind, EmailConfig, SlackConfig, TeamsConfig } from '../delivery/channel-kinds.js';

// The configs and what a sender needs are delivery's vocabulary; channels/ stores them.
export type { ChannelConfig, ChannelSecrets, EmailConfig, OpenChannel, SlackConfig, TeamsConfig } from '../delivery/channel-kinds.js';

export interface ChannelRow {
  tenant_id: string;
  environment_id: string;
  scope_id: string | null;
  id: string;
  name: string;
  kind: ChannelKind;
  config: ChannelConfig;
  secret_iv: Buffer | null;
  secret_ciphertext: Buffer | null;
  secret_tag: Buffer | null;
  enabled: boolean;
  created_at: Date;
  updated_at: Date;
}

export interface ChannelResponse {
  id: string;
  name: string;
  kind: ChannelKind;
  email?: Omit<EmailConfig, 'ca'> & { ca: boolean };
  slack?: SlackConfig;
  teams?: TeamsConfig;
  /** Names of the write-only fields that are set (their values are never returned). */
  secrets: string[];
  enabled: boolean;
  customer_id: string | null;
  created_at: string;
  updated_at: string;
}

export function toChannelResponse(row: ChannelRow, secretNames: string[]): ChannelResponse {
  const base = { id: row.id, name: row.name, kind: row.kind };
  const rest = {
    secrets: secretNames,
    enabled: row.enabled,
    customer_id: row.scope_id,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
  switch (row.kind) {
    case 'email': {
      const { ca, ...email } = row.config as EmailConfig;
      return { ...base, email: { ...email, ca: ca !== null }, ...rest };
    }
    case 'slack':
      return { ...base, slack: row.config as SlackConfig, ...rest };
    case 'teams':
      return { ...base, teams: {}, ...rest };
  }
}
