import type { EntityManager } from 'typeorm';
import type { SealedSecret } from '@platform/common';

interface HashKeyRow {
  secret_iv: Buffer;
  secret_ciphertext: Buffer;
  secret_tag: Buffer;
}

/** account.hash_keys: platform-wide sealed secrets keyed by name (system path only). */
export const hashKeysRepository = {
  async find(m: EntityManager, name: string): Promise<SealedSecret | undefined> {
    const rows = await m.query<HashKeyRow[]>(`select secret_iv, secret_ciphertext, secret_tag from account.hash_keys where name = $1`, [name]);
    return rows[0] ? { iv: rows[0].secret_iv, ciphertext: rows[0].secret_ciphertext, tag: rows[0].secret_tag } : undefined;
  },

  async anyApiKeyIssued(m: EntityManager): Promise<boolean> {
    const rows = await m.query<{ issued: boolean }[]>(`select exists (select 1 from account.api_keys) as issued`);
    return rows[0].issued;
  },

  /** Inserts unless another process did first (then the caller reads theirs). */
  async insertIfAbsent(m: EntityManager, name: string, sealed: SealedSecret): Promise<void> {
    await m.query(`insert into account.hash_keys (name, secret_iv, secret_ciphertext, secret_tag) values ($1, $2, $3, $4) on conflict (name) do nothing`, [
      name,
      sealed.iv,
      sealed.ciphertext,
      sealed.tag,
    ]);
  },
};
