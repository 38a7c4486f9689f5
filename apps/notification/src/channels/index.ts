import type { EntityManager } from 'typeorm';
import { channelsRepository } from './channels.repository.js';

// What other features of this app may use of channels inside their own transaction: the
// repository stays private to this folder (scripts/check-feature-deps.js).

/** Whether the caller's transaction sees a channel of this id (RLS). */
export async function channelExists(m: EntityManager, id: string): Promise<boolean> {
  return (await channelsRepository.get(m, id)) !== undefined;
}
