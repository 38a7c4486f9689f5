import { CreateSchema1763800000000 } from './1763800000000-CreateSchema.js';
import { CreateKnowledgeBases1766100000000 } from './1766100000000-CreateKnowledgeBases.js';
import { CountIndexRequeues1766200000000 } from './1766200000000-CountIndexRequeues.js';

/** In order of application; db-setup runs them as the schema's owner. */
export const migrations = [CreateSchema1763800000000, CreateKnowledgeBases1766100000000, CountIndexRequeues1766200000000];
