import { Inject, Injectable } from '@nestjs/common';
import { exportJWK, generateKeyPair, importJWK, jwtVerify, SignJWT, type JWK, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { newId, resolveMasterKeys, SEALED_RECORDS, SealedBox, type ServiceConfig } from '@platform/common';
import { SystemDb } from '@platform/db';
import { SERVICE_CONFIG } from '@platform/service';
import { PORTAL_CONFIG, type PortalConfig } from '../config/portal.config.js';
import { signingKeysRepository, type SigningKeyRow } from './signing-keys.repository.js';

/** The longest an embed token may live: a retired key keeps verifying this long after it stops signing. */
export const MAX_TOKEN_SECONDS = 30 * 86_400;
const ALG = 'EdDSA';
const ISSUER = 'platform-portal';
const AUDIENCE = 'portal-embed';
/** The sealed private keys are the platform's, not a tenant's: one fixed derivation label. */
const PLATFORM = 'platform';

/**
 * The platform's rotating Ed25519 keys for embed tokens (JWTs via jose). The newest key signs
 * until `signs_until`; then the next signature makes a new one. A key verifies until the longest
 * token it can have signed has expired, so rotation never breaks a token still in its lifetime.
 * Private halves are sealed at rest with the shared SealedBox under the master key.
 */
@Injectable()
export class KeyRing {
  private readonly box: SealedBox;

  constructor(
    private readonly system: SystemDb,
    @Inject(SERVICE_CONFIG) config: ServiceConfig,
    @Inject(PORTAL_CONFIG) private readonly portal: PortalConfig,
  ) {
    this.box = new SealedBox(resolveMasterKeys(config), SEALED_RECORDS.portalSigningKeys.label);
  }

  async sign(claims: JWTPayload, jti: string, expiresAt: Date): Promise<string> {
    let key = await this.signingKey();
    let jwk: JWK;
    try {
      jwk = this.privateJwk(key);
    } catch {
      // Sealed under another master key (it was changed): retire it and sign with a new one.
      key = await this.rotate(key.id);
      jwk = this.privateJwk(key);
    }
    return new SignJWT(claims)
      .setProtectedHeader({ alg: ALG, kid: key.id, typ: 'JWT' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setJti(jti)
      .setIssuedAt()
      .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
      .sign(await importJWK(jwk, ALG));
  }

  /** The verified claims, or undefined for anything else (malformed, tampered, expired, unknown or retired key, other algorithm). */
  async verify(token: string): Promise<JWTPayload | undefined> {
    const keys = await this.system.run('read the portal signing keys', (m) => signingKeysRepository.usable(m), 'debug');
    const getKey: JWTVerifyGetKey = async (header) => {
      const row = keys.find((k) => k.id === header.kid);
      if (!row) throw new Error('unknown key');
      return importJWK(row.public_jwk as JWK, ALG);
    };
    try {
      const { payload } = await jwtVerify(token, getKey, { algorithms: [ALG], issuer: ISSUER, audience: AUDIENCE });
      return payload;
    } catch {
      return undefined;
    }
  }

  /** The key that signs now, made if there is none (first use, or the last one's signing period is over). */
  private async signingKey(): Promise<SigningKeyRow> {
    const found = current(await this.system.run('read the portal signing keys', (m) => signingKeysRepository.usable(m), 'debug'));
    return found ?? this.rotate(null);
  }

  /** Makes the next key unless another replica just did; `retire` stops that key signing first. */
  private rotate(retire: string | null): Promise<SigningKeyRow> {
    return this.system.run('rotate the portal signing key', async (m) => {
      await signingKeysRepository.lockRotation(m);
      if (retire) await signingKeysRepository.stopSigning(m, retire);
      const again = current(await signingKeysRepository.usable(m));
      if (again) return again;
      const { privateKey, publicKey } = await generateKeyPair(ALG, { extractable: true });
      const id = newId();
      const sealed = this.box.seal(PLATFORM, [id], JSON.stringify(await exportJWK(privateKey)));
      const signsUntil = new Date(Date.now() + this.portal.PORTAL_SIGNING_KEY_ROTATION_DAYS * 86_400_000);
      const row = {
        id,
        public_jwk: { ...(await exportJWK(publicKey)), kid: id, alg: ALG },
        private_iv: sealed.iv,
        private_ciphertext: sealed.ciphertext,
        private_tag: sealed.tag,
        signs_until: signsUntil,
        verifies_until: new Date(signsUntil.getTime() + MAX_TOKEN_SECONDS * 1000),
      };
      await signingKeysRepository.insert(m, row);
      return { ...row, created_at: new Date() };
    });
  }

  private privateJwk(key: SigningKeyRow): JWK {
    return JSON.parse(this.box.open(PLATFORM, [key.id], { iv: key.private_iv, ciphertext: key.private_ciphertext, tag: key.private_tag })) as JWK;
  }
}

const current = (rows: SigningKeyRow[]) => rows.find((k) => k.signs_until.getTime() > Date.now());
