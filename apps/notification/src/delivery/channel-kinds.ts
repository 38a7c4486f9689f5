// The kinds of channel delivery reaches and what a sender needs of one. channels/ stores channels
// of these kinds (and re-exports these names); delivery/ depends on nothing of channels/.

export const CHANNEL_KINDS = ['email', 'slack', 'teams'] as const;
export type ChannelKind = (typeof CHANNEL_KINDS)[number];
export const SMTP_SECURITY = ['tls', 'starttls'] as const;
export type SmtpSecurity = (typeof SMTP_SECURITY)[number];

/** What a channel stores in the clear (`config`). */
export interface EmailConfig {
  host: string;
  port: number;
  security: SmtpSecurity;
  username: string | null;
  from: string;
  reply_to: string | null;
  to: string[];
  ca: string | null;
}
export interface SlackConfig {
  mode: 'webhook' | 'bot';
  channel: string | null;
}
export type TeamsConfig = Record<string, never>;
export type ChannelConfig = EmailConfig | SlackConfig | TeamsConfig;

/** What a channel stores sealed: the credentials. */
export interface ChannelSecrets {
  password?: string;
  webhook_url?: string;
  bot_token?: string;
}

/** A channel with its credentials opened: what a sender needs. Never leaves the service. */
export interface OpenChannel {
  id: string;
  kind: ChannelKind;
  config: ChannelConfig;
  secrets: ChannelSecrets;
}
