import { CreateSchema1763800000000 } from './1763800000000-CreateSchema.js';
import { CreateEngine1764100000000 } from './1764100000000-CreateEngine.js';

/** In order of application; db-setup runs them as the schema's owner. */
export const migrations = [CreateSchema1763800000000, CreateEngine1764100000000];
