import type { EntityManager } from 'typeorm';

export interface SigningKeyRow {
  id: string;
  public_jwk: Record<string, unknown>;
  private_iv: Buffer;
  private_ciphertext: Buffer;
  private_tag: Buffer;
  created_at: Date;
  signs_until: Date;
  verifies_until: Date;
}

/** Platform-wide rows (no tenant): only ever reached through SystemDb. */
export const signingKeysRepository = {
  async usable(m: EntityManager): Promise<SigningKeyRow[]> {
    return await m.query<SigningKeyRow[]>(`select * from portal.signing_keys where verifies_until > now() order by created_at desc`);
  },

  /** One rotation at a time across replicas: the second waits, then finds the key the first made. */
  async lockRotation(m: EntityManager): Promise<void> {
    await m.query(`select pg_advisory_xact_lock(hashtext('portal.signing_keys'))`);
  },

  async stopSigning(m: EntityManager, id: string): Promise<void> {
    await m.query(`update portal.signing_keys set signs_until = least(signs_until, now()) where id = $1`, [id]);
  },

  async insert(m: EntityManager, row: Omit<SigningKeyRow, 'created_at'>): Promise<void> {
    await m.query(
      `insert into portal.signing_keys (id, public_jwk, private_iv, private_ciphertext, private_tag, signs_until, verifies_until) values ($1, $2, $3, $4, $5, $6, $7)`,
      [row.id, row.public_jwk, row.private_iv, row.private_ciphertext, row.private_tag, row.signs_until, row.verifies_until],
    );
  },
};
