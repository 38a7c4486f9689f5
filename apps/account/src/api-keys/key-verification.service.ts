import { Injectable } from '@nestjs/common';
import { parseApiKey } from '@platform/auth';
import { SystemDb } from '@platform/db';
import type { VerifyKeyResponse } from '@platform/messaging';
import { findKeyByHash } from './api-keys.repository.js';
import { KeyHasher } from './key-hasher.js';

/**
 * Answers `account.keys.verify` for every service. The lookup is by hash across tenants (the
 * tenant is what it finds out), hence the system path; callers cache the answer for seconds.
 */
@Injectable()
export class KeyVerificationService {
  constructor(
    private readonly system: SystemDb,
    private readonly hasher: KeyHasher,
  ) {}

  async verify(key: string): Promise<VerifyKeyResponse> {
    if (typeof key !== 'string' || !parseApiKey(key)) return { valid: false };
    const row = await this.system.run('verify an API key', (m) => findKeyByHash(m, this.hasher.hash(key)), 'debug');
    if (!row) return { valid: false };
    const now = Date.now();
    const expires = row.expires_at?.getTime() ?? null;
    if (expires !== null && expires <= now) return { valid: false };
    let validUntil = expires;
    if (row.status === 'rotated') {
      const grace = row.grace_until?.getTime() ?? 0;
      if (grace <= now) return { valid: false };
      validUntil = validUntil === null ? grace : Math.min(validUntil, grace);
    } else if (row.status !== 'active') {
      return { valid: false };
    }
    return {
      valid: true,
      key: {
        keyId: row.id,
        name: row.name,
        tenantId: row.tenant_id,
        environmentId: row.environment_id,
        customerId: row.customer_id,
        type: row.type,
        mode: row.mode,
        scopes: row.scopes,
        validUntil,
      },
    };
  }
}
