import { SEALED_RECORDS, SealedBox, type MasterKeyRing, type SealedSecret } from '@platform/common';
import type { ChannelRow, ChannelSecrets } from './channel.record.js';

/**
 * Channel credentials and ad-hoc destinations (a Slack or Teams URL given in a send) at rest:
 * sealed per tenant under the master key, bound to the environment and the record's id.
 */
export class ChannelSecretBox {
  private readonly channels: SealedBox;
  private readonly targets: SealedBox;

  constructor(keys: MasterKeyRing | Buffer) {
    this.channels = new SealedBox(keys, SEALED_RECORDS.channelSecrets.label);
    this.targets = new SealedBox(keys, SEALED_RECORDS.notificationTargets.label);
  }

  sealChannel(tenantId: string, environmentId: string, channelId: string, secrets: ChannelSecrets): SealedSecret | null {
    if (!Object.keys(secrets).length) return null;
    return this.channels.seal(tenantId, [environmentId, channelId], JSON.stringify(secrets));
  }

  openChannel(row: Pick<ChannelRow, 'tenant_id' | 'environment_id' | 'id' | 'secret_iv' | 'secret_ciphertext' | 'secret_tag'>): ChannelSecrets {
    if (!row.secret_iv || !row.secret_ciphertext || !row.secret_tag) return {};
    const json = this.channels.open(row.tenant_id, [row.environment_id, row.id], { iv: row.secret_iv, ciphertext: row.secret_ciphertext, tag: row.secret_tag });
    return JSON.parse(json) as ChannelSecrets;
  }

  sealTarget(tenantId: string, environmentId: string, notificationId: string, url: string): SealedSecret {
    return this.targets.seal(tenantId, [environmentId, notificationId], url);
  }

  openTarget(tenantId: string, environmentId: string, notificationId: string, sealed: SealedSecret): string {
    return this.targets.open(tenantId, [environmentId, notificationId], sealed);
  }
}
