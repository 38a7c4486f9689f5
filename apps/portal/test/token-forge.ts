import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, importJWK, SignJWT, type JWK, type JWTPayload } from 'jose';
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

/** A signing key row made by the test itself (so ageing it disturbs no other test's tokens). */
export async function insertKey(signsUntil: Date, verifiesUntil: Date): Promise<string> {
  const masterKey = Buffer.from(env.serviceEnv.portal.MASTER_KEY, 'base64');
  const { privateKey, publicKey } = await generateKeyPair('EdDSA', { extractable: true });
  const id = randomUUID();
  const sealed = new SealedBox(masterKey, 'portal-signing-keys/v1').seal('platform', [id], JSON.stringify(await exportJWK(privateKey)));
  const publicJwk = { ...(await exportJWK(publicKey)), kid: id };
  await withDatabase((db) =>
    db.query(
      `insert into portal.signing_keys (id, public_jwk, private_iv, private_ciphertext, private_tag, created_at, signs_until, verifies_until)
       values ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [id, publicJwk, sealed.iv, sealed.ciphertext, sealed.tag, new Date(signsUntil.getTime() - 86_400_000), signsUntil, verifiesUntil],
    ),
  );
  return id;
}
