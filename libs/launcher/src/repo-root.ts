import { resolve } from 'node:path';

/** The repository's root, from this file's place in libs/launcher/dist/src. */
export const REPO_ROOT = resolve(import.meta.dirname, '../../../..');
