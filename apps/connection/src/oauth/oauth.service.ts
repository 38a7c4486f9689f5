import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Principal } from '@platform/auth';
import { AppError, isUuid } from '@platform/common';
import { TenantDb, type TenantContext } from '@platform/db';
import { CONNECTION_CONFIG, type ConnectionConfig } from '../config/connection.config.js';
import { ConnectionErrors } from '../connections/connections.errors.js';
import { ConnectionsService } from '../connections/connections.service.js';
import { GrantRefused, OAuthClient } from './oauth-client.js';
import { oauthStatesRepository } from './oauth-states.repository.js';

const STATE_TTL_SECONDS = 600;

export interface OAuthStart {
  authorization_url: string;
  state_expires_at: string;
}

export interface OAuthCallbackResult {
  ok: boolean;
  connection_id: string | null;
  message: string;
  return_url: string | null;
}

const invalidState = () => new AppError('invalid_state', 400, 'The authorization state is unknown, used or expired: start again');

/**
 * The authorization code flow with PKCE. `state` names the tenant and environment (so the public
 * callback can open a tenant transaction) and a single-use row, bound to the connection and the
 * user who started, holding the sealed PKCE verifier for ten minutes.
 */
@Injectable()
export class OAuthService {
  private readonly logger = new Logger('OAuth');

  constructor(
    private readonly db: TenantDb,
    private readonly connections: ConnectionsService,
    private readonly client: OAuthClient,
    @Inject(CONNECTION_CONFIG) private readonly config: ConnectionConfig,
  ) {}

  async start(p: Principal, connectionId: string, redirectUri: string | undefined, returnUrl: string | undefined): Promise<OAuthStart> {
    const row = await this.connections.row(p, connectionId);
    if (row.auth_type !== 'oauth2_code') throw ConnectionErrors.notOAuth();
    const verifier = this.client.verifier();
    const stateId = randomUUID();
    const redirect = redirectUri ?? this.config.CONNECTION_OAUTH_REDIRECT_URL;
    const expiresAt = await this.db.run(p, (m) =>
      oauthStatesRepository.insert(m, {
        tenantId: p.tenantId,
        environmentId: p.environmentId,
        scopeId: row.scope_id,
        id: stateId,
        connectionId: row.id,
        subject: p.subject,
        verifier: this.connections.box.sealVerifier(p.tenantId, p.environmentId, stateId, verifier),
        redirectUri: redirect,
        returnUrl: returnUrl ?? null,
        ttlSeconds: STATE_TTL_SECONDS,
      }),
    );
    const state = Buffer.from(`${p.tenantId}.${p.environmentId}.${stateId}`).toString('base64url');
    const url = await this.client.authorizationUrl(row.auth_settings, { redirectUri: redirect, state, verifier });
    return { authorization_url: url, state_expires_at: expiresAt.toISOString() };
  }

  async callback(query: Record<string, string>): Promise<OAuthCallbackResult> {
    const [tenantId, environmentId, stateId] = Buffer.from(query.state ?? '', 'base64url')
      .toString('utf8')
      .split('.');
    if (!isUuid(tenantId) || !isUuid(environmentId) || !isUuid(stateId)) throw invalidState();
    const ctx: TenantContext = { tenantId, environmentId, scopeId: null };
    const state = await this.db.run(ctx, (m) => oauthStatesRepository.take(m, stateId));
    if (!state) throw invalidState();
    const row = await this.connections.find(ctx, state.connection_id);
    if (!row || row.auth_type !== 'oauth2_code') throw invalidState();
    const box = this.connections.box;
    const verifier = box.openVerifier(tenantId, environmentId, stateId, {
      iv: state.verifier_iv,
      ciphertext: state.verifier_ciphertext,
      tag: state.verifier_tag,
    });
    const credentials = box.open(row);
    const rowCtx = { tenantId, environmentId, scopeId: row.scope_id };
    try {
      const tokens = await this.client.exchangeCode(row.auth_settings, credentials.client_secret, {
        callback: new URLSearchParams(query),
        state: query.state,
        redirectUri: state.redirect_uri,
        verifier,
      });
      const next = { ...credentials, access_token: tokens.access_token, refresh_token: tokens.refresh_token };
      await this.connections.save(rowCtx, row.id, {
        sealed: box.seal(tenantId, environmentId, row.id, next),
        tokenExpiresAt: tokens.expires_at,
        status: 'active',
        statusReason: null,
      });
      this.logger.log(`connection ${row.id} authorized (started by ${state.subject})`);
      return { ok: true, connection_id: row.id, message: 'The connection is authorized', return_url: state.return_url };
    } catch (error) {
      if (!(error instanceof GrantRefused)) throw error;
      const reason = `authorization refused: ${error.message}`.slice(0, 500);
      await this.connections.save(rowCtx, row.id, { status: 'needs_reauth', statusReason: reason });
      return { ok: false, connection_id: row.id, message: reason, return_url: state.return_url };
    }
  }
}
