import { Injectable } from '@nestjs/common';
import { AppError, isUuid } from '@platform/common';
import { TenantDb } from '@platform/db';
import { CustomerDirectory } from '../customers/customer-directory.js';
import { KeyRing } from '../signing/key-ring.js';
import { embedsRepository, type EmbedKind, type EmbedRow } from './embeds.repository.js';

/** What a valid token grants: one customer's scope, for one kind and target. */
export interface EmbedGrant {
  ctx: { tenantId: string; environmentId: string; scopeId: string };
  embed: EmbedRow;
}

export const EmbedAccessErrors = {
  invalid: () => new AppError('invalid_embed_token', 401, 'This link is not valid or has expired'),
  wrongTarget: () => new AppError('wrong_embed_target', 403, 'This link is for another page'),
};

/**
 * Checks an embed token for a view: signature and expiry (KeyRing), then that it was made for
 * this kind and target, then its row (revoked tokens stop at once). The token's tenant,
 * environment and customer become the view's context, so RLS confines everything it reads. A
 * disabled customer's tokens are refused like revoked ones.
 */
@Injectable()
export class EmbedAccess {
  constructor(
    private readonly keys: KeyRing,
    private readonly db: TenantDb,
    private readonly customers: CustomerDirectory,
  ) {}

  async grant(token: string | undefined, kind: EmbedKind, targetId: string): Promise<EmbedGrant> {
    if (!token || token.length > 4096) throw EmbedAccessErrors.invalid();
    const claims = await this.keys.verify(token);
    if (!claims || typeof claims.jti !== 'string' || ![claims.tid, claims.eid, claims.cid, claims.tgt, claims.jti].every(isUuid))
      throw EmbedAccessErrors.invalid();
    if (claims.knd !== kind || claims.tgt !== targetId.toLowerCase()) throw EmbedAccessErrors.wrongTarget();
    const ctx = { tenantId: claims.tid as string, environmentId: claims.eid as string, scopeId: claims.cid as string };
    const embed = await this.db.run(ctx, (m) => embedsRepository.get(m, claims.jti as string));
    if (!embed || embed.revoked_at || embed.expires_at.getTime() <= Date.now()) throw EmbedAccessErrors.invalid();
    // A disabled customer's tokens stop working with its keys.
    if (!(await this.customers.isActive(ctx, ctx.scopeId))) throw EmbedAccessErrors.invalid();
    return { ctx, embed };
  }
}
