import { createHash, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable, Logger, ServiceUnavailableException, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { Subscription } from '@nats-io/transport-node';
import { isUuid } from '@platform/common';
import { AccountSubjects, Bus, BusError, downstreamRefusal, messageContext, type ResolveEnvironmentResponse, type VerifiedKey } from '@platform/messaging';
import { AUTH_OPTIONS, type AuthOptions } from './auth.options.js';
import { forbidden, tenantRequired, unauthorized } from './auth.errors.js';
import { Authenticator, type CredentialsRequest } from './authenticator.js';
import { JwtVerifier, type JwtClaims } from './jwt/jwt-verifier.js';
import { JwtVerificationError } from './jwt/jwt.errors.js';
import { looksLikeApiKey, parseApiKey } from './keys/api-key-format.js';
import { KeyVerificationCache } from './keys/key-verification.cache.js';
import type { Principal } from './principal.js';
import type { SystemPrincipal } from './system-principal.js';
import { TtlCache } from './ttl.cache.js';

const MAX_CREDENTIAL_LENGTH = 8192;
const VERIFY_TIMEOUT_MS = 2000;

function header(request: CredentialsRequest, name: string): string | undefined {
  const value = request.headers[name];
  if (Array.isArray(value)) throw unauthorized(); // two credentials of one kind: refuse rather than guess
  return value;
}

/**
 * API keys (`X-API-Key`, or `Authorization: Bearer sv_…`) and bearer JWTs, in the spec's order:
 * validate the credential (401), then the selected tenant (400 when missing, 403 when not
 * authorized), then the customer scope (403 when foreign).
 */
@Injectable()
export class CredentialsAuthenticator extends Authenticator implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('Authentication');
  private readonly keys: KeyVerificationCache;
  private readonly environments = new TtlCache<ResolveEnvironmentResponse>(60_000);
  private readonly customers = new TtlCache<boolean>(30_000);
  private readonly jwt: JwtVerifier;
  private revocations?: Subscription;

  constructor(
    private readonly bus: Bus,
    @Inject(AUTH_OPTIONS) private readonly options: AuthOptions,
  ) {
    super();
    this.keys = new KeyVerificationCache(options.keyCacheTtlMs);
    this.jwt = new JwtVerifier(options.jwt);
  }

  onModuleInit(): void {
    // Every replica of every service hears a revocation, so the key fails on its next request anywhere.
    this.revocations = this.bus.subscribeAll(AccountSubjects.keysRevoked, (event) => {
      this.keys.drop(event.data.keyIds);
      this.logger.log(`dropped cached verifications of ${event.data.keyIds.length} revoked key(s)`);
    });
  }

  onModuleDestroy(): void {
    this.revocations?.unsubscribe();
  }

  async authenticate(request: CredentialsRequest): Promise<Principal> {
    const apiKey = this.apiKeyOf(request);
    if (apiKey !== undefined) return this.fromApiKey(apiKey, request);
    const token = this.bearerOf(request);
    if (token !== undefined) return this.fromJwt(token, request);
    throw unauthorized();
  }

  override async authenticateSystem(request: CredentialsRequest): Promise<SystemPrincipal> {
    const token = this.bearerOf(request);
    if (token === undefined) throw unauthorized();
    if (this.options.adminToken && constantTimeEquals(token, this.options.adminToken)) {
      return { kind: 'admin', subject: 'platform-admin', email: null };
    }
    if (looksLikeApiKey(token) || !this.jwt.isConfigured()) throw unauthorized();
    const claims = await this.verifyJwt(token);
    return { kind: 'user', subject: claims.sub, email: claims.email };
  }

  private apiKeyOf(request: CredentialsRequest): string | undefined {
    const explicit = header(request, 'x-api-key');
    if (explicit !== undefined) return explicit.trim();
    const bearer = this.bearerOf(request);
    return bearer !== undefined && looksLikeApiKey(bearer) ? bearer : undefined;
  }

  private bearerOf(request: CredentialsRequest): string | undefined {
    const authorization = header(request, 'authorization');
    if (authorization === undefined) return undefined;
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!match || match[1].length > MAX_CREDENTIAL_LENGTH) throw unauthorized();
    return match[1];
  }

  private async fromApiKey(key: string, request: CredentialsRequest): Promise<Principal> {
    // A malformed key or a bad checksum fails here, without a message or a database read.
    if (!parseApiKey(key)) throw unauthorized();
    const verified = await this.verify(key);
    const scopeHeader = header(request, 'x-scope-key');
    let scopeId: string | null;
    if (verified.type === 'customer') {
      if (scopeHeader !== undefined && scopeHeader !== verified.customerId) throw forbidden();
      scopeId = verified.customerId;
    } else {
      scopeId = scopeHeader === undefined ? null : await this.customerScope(scopeHeader, verified.tenantId, verified.environmentId);
    }
    return {
      tenantId: verified.tenantId,
      environmentId: verified.environmentId,
      scopeId,
      kind: verified.type === 'customer' ? 'customer_key' : 'tenant_key',
      keyMode: verified.mode,
      scopes: verified.scopes,
      subject: verified.keyId,
      keyName: verified.name,
    };
  }

  private async verify(key: string): Promise<VerifiedKey> {
    const hash = createHash('sha256').update(key).digest('base64url');
    let result = this.keys.get(hash);
    if (!result) {
      const requestedAt = Date.now();
      result = await this.ask(() =>
        this.bus.request(AccountSubjects.keysVerify, { key }, messageContext(null, { actor: 'authentication' }), { timeoutMs: VERIFY_TIMEOUT_MS }),
      );
      this.keys.set(hash, result, requestedAt);
    }
    if (!result.valid) throw unauthorized();
    if (result.key.validUntil !== null && result.key.validUntil <= Date.now()) throw unauthorized();
    return result.key;
  }

  private async fromJwt(token: string, request: CredentialsRequest): Promise<Principal> {
    if (!this.jwt.isConfigured()) throw unauthorized();
    // 1. Validate the JWT.
    const claims = await this.verifyJwt(token);
    // 2. The selected tenant must be given and authorized by the token.
    const tenantId = header(request, 'x-selected-tenant');
    if (tenantId === undefined || tenantId === '') throw tenantRequired();
    if (!isUuid(tenantId) || !claims.authorizedTenants.includes(tenantId)) throw forbidden();
    const selectedEnv = header(request, 'x-selected-env');
    if (selectedEnv !== undefined && !isUuid(selectedEnv)) throw forbidden();
    const environment = await this.environment(tenantId, selectedEnv);
    const scopeHeader = header(request, 'x-scope-key');
    const scopeId = scopeHeader === undefined ? null : await this.customerScope(scopeHeader, tenantId, environment.environmentId);
    // 3. Queries then run under this tenant's RLS context.
    return {
      tenantId,
      environmentId: environment.environmentId,
      scopeId,
      kind: 'user',
      keyMode: environment.mode,
      scopes: ['*'],
      subject: claims.sub,
      email: claims.email ?? undefined,
      tenants: claims.tenants,
    };
  }

  /** The reason goes to the log; the caller learns only 401, or 503 when the identity provider is unreachable. */
  private async verifyJwt(token: string): Promise<JwtClaims> {
    try {
      return await this.jwt.verify(token);
    } catch (error) {
      if (error instanceof JwtVerificationError && error.reason === 'no_keys') {
        this.logger.error(`JWT keys unavailable: ${error.message}`);
        throw new ServiceUnavailableException('Authentication is temporarily unavailable');
      }
      this.logger.warn(`JWT refused: ${error instanceof JwtVerificationError ? `${error.reason}: ${error.message}` : String(error)}`);
      throw unauthorized();
    }
  }

  private async environment(tenantId: string, environmentId: string | undefined) {
    const cacheKey = `${tenantId}|${environmentId ?? ''}`;
    let found = this.environments.get(cacheKey);
    if (!found) {
      found = await this.ask(() =>
        this.bus.request(AccountSubjects.environmentsResolve, { tenantId, environmentId }, messageContext(null, { actor: 'authentication' }), {
          timeoutMs: VERIFY_TIMEOUT_MS,
        }),
      );
      this.environments.set(cacheKey, found, found.found ? undefined : 5000);
    }
    if (!found.found) throw forbidden();
    return found;
  }

  /** A tenant-level caller narrows itself to one customer; a customer of another tenant or environment is 403. */
  private async customerScope(customerId: string, tenantId: string, environmentId: string): Promise<string> {
    if (!isUuid(customerId)) throw forbidden();
    const cacheKey = `${tenantId}|${environmentId}|${customerId}`;
    let exists = this.customers.get(cacheKey);
    if (exists === undefined) {
      const context = { ...messageContext(null, { actor: 'authentication' }), tenantId, environmentId };
      exists = (await this.ask(() => this.bus.request(AccountSubjects.customersResolve, { customerId }, context, { timeoutMs: VERIFY_TIMEOUT_MS }))).exists;
      this.customers.set(cacheKey, exists, exists ? undefined : 5000);
    }
    if (!exists) throw forbidden();
    return customerId;
  }

  /**
   * The account service being unreachable is an outage (503), never a reason to let a caller in or to blame its key;
   * its deliberate refusal (401, 403, 429) is the caller's answer as it is.
   */
  private async ask<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      const refusal = downstreamRefusal(error);
      if (refusal) throw refusal;
      if (error instanceof BusError) {
        this.logger.error(`credential check failed: ${error.message}`);
        throw new ServiceUnavailableException('Authentication is temporarily unavailable');
      }
      throw error;
    }
  }
}

function constantTimeEquals(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
