import { chunksRepository } from './chunks.repository.js';

// What indexing/ uses of search: the repository stays private to this folder
// (scripts/check-feature-deps.js).

export { PGVECTOR_DIMENSIONS, VectorModeProvider } from './vector-mode.js';

/** The chunks of a document generation as the indexer writes them, in its transaction: those already stored, and a batch to store. */
export const chunkStore = {
  ordinals: (...args: Parameters<typeof chunksRepository.ordinals>) => chunksRepository.ordinals(...args),
  insertMany: (...args: Parameters<typeof chunksRepository.insertMany>) => chunksRepository.insertMany(...args),
};
