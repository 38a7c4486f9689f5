import { createCipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { SecretBox } from './secret-box.js';

describe('SecretBox', () => {
  const master = randomBytes(32);

  it('opens secrets sealed before it moved to the shared SealedBox', () => {
    // The construction webhook secrets were stored with: AES-256-GCM, HKDF(master, tenant, label), AAD label\0tenant\0env\0webhook.
    const label = 'platform/webhook/secret-key/v1';
    const [tenant, env, webhook] = ['t-1', 'e-1', 'w-1'];
    const key = Buffer.from(hkdfSync('sha256', master, Buffer.from(tenant), label, 32));
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(Buffer.from(`${label}\0${tenant}\0${env}\0${webhook}`));
    const ciphertext = Buffer.concat([cipher.update('whsec_old', 'utf8'), cipher.final()]);
    expect(new SecretBox(master).open(tenant, env, webhook, { iv, ciphertext, tag: cipher.getAuthTag() })).toBe('whsec_old');
  });

  it('binds a secret to its webhook', () => {
    const box = new SecretBox(master);
    const sealed = box.seal('t', 'e', 'w1', 'whsec_x');
    expect(box.open('t', 'e', 'w1', sealed)).toBe('whsec_x');
    expect(() => box.open('t', 'e', 'w2', sealed)).toThrow();
  });
});
