import { importJWK, SignJWT, type JWK, type JWTPayload } from 'jose';
import pg from 'pg';
import { SealedBox } from '@platform/common';
import { env } from './portal-helpers.js';

/**
 * Test-only access to the platform's signing keys, straight from the database with the service's
 * master key: to sign tokens the API never would (already expired) and to age keys for rotation.
 */
export async function withDatabase<T>(work: (db: pg.Client) => Promise<T>): Promise<T> {
  const db = new pg.Client({ connectionString: env.databaseUrl });
  await db.connect();
  try {
    return await work(db);
  } finally {
    await db.end();
  }
}

export async function signWithKey(kid: string, claims: JWTPayload): Promise<string> {
  const masterKey = Buffer.from(env.serviceEnv.portal.MASTER_KEY, 'base64');
  const row = await withDatabase(async (db) => (await db.query(`select * from portal.signing_keys where id = $1`, [kid])).rows[0] as Record<string, Buffer>);
  const jwk = JSON.parse(
    new SealedBox(masterKey, 'portal-signing-keys/v1').open('platform', [kid], {
      iv: row.private_iv,
      ciphertext: row.private_ciphertext,
      tag: row.private_tag,
    }),
  ) as JWK;
  return new SignJWT(claims).setProtectedHeader({ alg: 'EdDSA', kid, typ: 'JWT' }).sign(await importJWK(jwk, 'EdDSA'));
}

export function decode(token: string): { header: Record<string, unknown>; payload: Record<string, unknown> } {
  const [h, p] = token.split('.');
  const part = (text: string) => JSON.parse(Buffer.from(text, 'base64url').toString()) as Record<string, unknown>;
  return { header: part(h), payload: part(p) };
}
