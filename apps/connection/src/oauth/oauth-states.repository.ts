import type { EntityManager } from 'typeorm';
import type { SealedSecret } from '@platform/common';

export interface OAuthStateRow {
  id: string;
  connection_id: string;
  subject: string;
  verifier_iv: Buffer;
  verifier_ciphertext: Buffer;
  verifier_tag: Buffer;
  redirect_uri: string;
  return_url: string | null;
}

/** Every query on connection.oauth_states; managers come from TenantDb (RLS). */
export const oauthStatesRepository = {
  async insert(
    m: EntityManager,
    s: {
      tenantId: string;
      environmentId: string;
      scopeId: string | null;
      id: string;
      connectionId: string;
      subject: string;
      verifier: SealedSecret;
      redirectUri: string;
      returnUrl: string | null;
      ttlSeconds: number;
    },
  ): Promise<Date> {
    const rows = await m.query<{ expires_at: Date }[]>(
      `insert into connection.oauth_states (tenant_id, environment_id, scope_id, id, connection_id, subject, verifier_iv, verifier_ciphertext, verifier_tag, redirect_uri, return_url, expires_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, now() + make_interval(secs => $12)) returning expires_at`,
      [
        s.tenantId,
        s.environmentId,
        s.scopeId,
        s.id,
        s.connectionId,
        s.subject,
        s.verifier.iv,
        s.verifier.ciphertext,
        s.verifier.tag,
        s.redirectUri,
        s.returnUrl,
        s.ttlSeconds,
      ],
    );
    return rows[0].expires_at;
  },

  /** Single use: the state is deleted as it is read; an expired one is only deleted. */
  async take(m: EntityManager, id: string): Promise<OAuthStateRow | undefined> {
    const [rows] = await m.query<[(OAuthStateRow & { live: boolean })[], number]>(
      `delete from connection.oauth_states where id = $1 returning id, connection_id, subject, verifier_iv, verifier_ciphertext, verifier_tag, redirect_uri, return_url, expires_at > now() as live`,
      [id],
    );
    return rows[0]?.live ? rows[0] : undefined;
  },
};
