/**
 * Every set of values at rest sealed with a SealedBox, by table: the label its box uses, and the
 * columns that make its tenant and binding. The services' boxes take their label from here, and
 * `npm run admin -- reseal-secrets` walks this list to move every value to the current master key
 * after a rotation, so a new sealed column is added here or it is not re-sealed.
 */
export interface SealedRecords {
  /** What the values are, for the command's progress output. */
  what: string;
  table: string;
  label: string;
  /** `<prefix>_iv`, `<prefix>_ciphertext`, `<prefix>_tag` hold the sealed value. */
  prefix: string;
  /** The column with the tenant id, or the fixed tenant of platform-wide records. */
  tenant: { column: string } | { fixed: string };
  /** The columns the value is bound to (the box's `bind`), in order. */
  bind: string[];
  /** The row's primary key columns. */
  key: string[];
}

const tenantRecord = (what: string, table: string, label: string, prefix = 'secret'): SealedRecords => ({
  what,
  table,
  label,
  prefix,
  tenant: { column: 'tenant_id' },
  bind: ['environment_id', 'id'],
  key: ['tenant_id', 'id'],
});

export const SEALED_RECORDS = {
  webhookSecrets: tenantRecord('webhook secrets', 'webhook.webhooks', 'platform/webhook/secret-key/v1'),
  channelSecrets: tenantRecord('notification channel credentials', 'notification.channels', 'platform/notification/channel-secrets/v1'),
  notificationTargets: tenantRecord('notification destinations', 'notification.notifications', 'platform/notification/target/v1', 'target'),
  providerKeys: tenantRecord('AI provider keys', 'ai.providers', 'platform/ai/provider-api-key/v1'),
  connectionCredentials: tenantRecord('connection credentials', 'connection.connections', 'platform/connection/credentials/v1'),
  oauthVerifiers: tenantRecord('OAuth PKCE verifiers', 'connection.oauth_states', 'platform/connection/pkce-verifier/v1', 'verifier'),
  portalSigningKeys: {
    what: 'portal signing keys',
    table: 'portal.signing_keys',
    label: 'portal-signing-keys/v1',
    prefix: 'private',
    tenant: { fixed: 'platform' },
    bind: ['id'],
    key: ['id'],
  },
  apiKeyHashKey: {
    what: 'the API key hash key',
    table: 'account.hash_keys',
    label: 'platform/account/hash-key/v1',
    prefix: 'secret',
    tenant: { fixed: 'platform' },
    bind: ['name'],
    key: ['name'],
  },
} satisfies Record<string, SealedRecords>;
