import { CreateSchema1763800000000 } from './1763800000000-CreateSchema.js';
import { CreateConnections1765600000000 } from './1765600000000-CreateConnections.js';

/** In order of application; db-setup runs them as the schema's owner. */
export const migrations = [CreateSchema1763800000000, CreateConnections1765600000000];
