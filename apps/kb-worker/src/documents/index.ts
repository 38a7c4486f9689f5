import { documentsRepository } from './documents.repository.js';

// What indexing/ uses of documents: the repository stays private to this folder
// (scripts/check-feature-deps.js), and documents/ chooses the queries it hands out.

/**
 * A document's indexing lifecycle, in the indexer's transaction: claim it under a lease, keep the
 * lease, store fetched bytes, finish it (ready makes its chunks live); and, on the system path, the
 * reconciler's documents without progress and their mark.
 */
export const documentIndexing = {
  claim: (...args: Parameters<typeof documentsRepository.claim>) => documentsRepository.claim(...args),
  extendLease: (...args: Parameters<typeof documentsRepository.extendLease>) => documentsRepository.extendLease(...args),
  storeContent: (...args: Parameters<typeof documentsRepository.storeContent>) => documentsRepository.storeContent(...args),
  finish: (...args: Parameters<typeof documentsRepository.finish>) => documentsRepository.finish(...args),
  stale: (...args: Parameters<typeof documentsRepository.stale>) => documentsRepository.stale(...args),
  touch: (...args: Parameters<typeof documentsRepository.touch>) => documentsRepository.touch(...args),
  giveUp: (...args: Parameters<typeof documentsRepository.giveUp>) => documentsRepository.giveUp(...args),
};
