import { Inject, Injectable, Logger } from '@nestjs/common';
import { CONNECTION_CONFIG, type ConnectionConfig } from '../config/connection.config.js';
import type { ConnectionRow, Credentials } from '../connections/connection.record.js';
import { ConnectionErrors } from '../connections/connections.errors.js';
import { ConnectionsService } from '../connections/connections.service.js';
import { CredentialBox } from '../connections/credential-box.js';
import { GrantRefused, OAuthClient } from './oauth-client.js';

type Outcome = { ok: true; credentials: Credentials } | { ok: false; reason: string };

/**
 * OAuth access tokens, refreshed before they expire. The refresh runs under the connection row's
 * lock (`select … for update`), so replicas and concurrent operations never refresh one token
 * twice: whoever waited for the lock finds the new token and uses it. A grant the provider refuses
 * marks the connection `needs_reauth` (committed, with the reason) and fails the call.
 */
@Injectable()
export class TokenKeeper {
  private readonly logger = new Logger('TokenKeeper');

  constructor(
    private readonly connections: ConnectionsService,
    private readonly box: CredentialBox,
    private readonly client: OAuthClient,
    @Inject(CONNECTION_CONFIG) private readonly config: ConnectionConfig,
  ) {}

  isOAuth(row: ConnectionRow): boolean {
    return row.auth_type === 'oauth2_code' || row.auth_type === 'oauth2_client_credentials';
  }

  /**
   * Credentials with a usable access token. `rejected`: the access token the remote side has just
   * refused (401) although it had not expired (revoked early, rotated elsewhere): it is replaced
   * unless another worker already did.
   */
  async fresh(row: ConnectionRow, credentials: Credentials, rejected?: string): Promise<Credentials> {
    if (!this.isOAuth(row)) return credentials;
    if (row.status === 'pending_authorization') throw ConnectionErrors.pending();
    if (row.status === 'needs_reauth') throw ConnectionErrors.needsReauth(row.status_reason);
    if (!rejected && !this.due(row, credentials)) return credentials;
    // The row's own scope: a customer's run may use a tenant-wide connection, and writing it back needs the tenant-wide context.
    const ctx = { tenantId: row.tenant_id, environmentId: row.environment_id, scopeId: row.scope_id };
    const outcome = await this.connections.locked(ctx, row.id, async (locked, save): Promise<Outcome> => {
      if (!locked) throw ConnectionErrors.notFound();
      if (locked.status === 'needs_reauth') return { ok: false, reason: locked.status_reason ?? 'authorization refused' };
      const current = this.box.open(locked);
      const stale = rejected ? current.access_token === rejected : this.due(locked, current);
      if (!stale) return { ok: true, credentials: current };
      try {
        const tokens =
          locked.auth_type === 'oauth2_client_credentials'
            ? await this.client.clientCredentials(locked.auth_settings, current.client_secret)
            : await this.client.refresh(locked.auth_settings, current.client_secret, current.refresh_token ?? noRefreshToken());
        const next: Credentials = { ...current, access_token: tokens.access_token, refresh_token: tokens.refresh_token ?? current.refresh_token };
        await save({
          sealed: this.box.seal(locked.tenant_id, locked.environment_id, locked.id, next),
          tokenExpiresAt: tokens.expires_at,
          refreshed: true,
          status: 'active',
          statusReason: null,
        });
        this.logger.log(`refreshed the token of connection ${row.id}`);
        return { ok: true, credentials: next };
      } catch (error) {
        if (!(error instanceof GrantRefused)) throw error;
        const reason = `token refresh refused: ${error.message}`.slice(0, 500);
        await save({ status: 'needs_reauth', statusReason: reason });
        this.logger.warn(`connection ${row.id} needs re-authorization (${reason})`);
        return { ok: false, reason };
      }
    });
    if (!outcome.ok) throw ConnectionErrors.needsReauth(outcome.reason);
    return outcome.credentials;
  }

  private due(row: ConnectionRow, credentials: Credentials): boolean {
    if (!credentials.access_token) return true;
    if (!row.token_expires_at) return false;
    return row.token_expires_at.getTime() - this.config.CONNECTION_REFRESH_MARGIN_SECONDS * 1000 <= Date.now();
  }
}

function noRefreshToken(): never {
  throw new GrantRefused('the provider gave no refresh token');
}
