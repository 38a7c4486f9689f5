import { CreateSchema1763800000000 } from './1763800000000-CreateSchema.js';
import { CreateConnectorCatalog1765600000000 } from './1765600000000-CreateConnectorCatalog.js';
import { CreateAiAgents1766100000000 } from './1766100000000-CreateAiAgents.js';

/** In order of application; db-setup runs them as the schema's owner. */
export const migrations = [CreateSchema1763800000000, CreateConnectorCatalog1765600000000, CreateAiAgents1766100000000];
