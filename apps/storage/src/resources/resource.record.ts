/** A row of storage.resources as the repository reads it. */
export interface ResourceRow {
  id: string;
  name: string;
  type: string;
  config: Record<string, unknown>;
  description: string | null;
  created_at: Date;
  updated_at: Date;
}

export const RESOURCE_COLUMNS = 'id, name, type, config, description, created_at, updated_at';

export interface ResourceResponse {
  id: string;
  name: string;
  type: string;
  config: Record<string, unknown>;
  description: string | null;
  created_at: string;
  updated_at: string;
}

export interface ResourceFields {
  name: string;
  type: string;
  config: Record<string, unknown>;
  description: string | null;
}

export function toResourceResponse(row: ResourceRow): ResourceResponse {
  return { ...row, created_at: row.created_at.toISOString(), updated_at: row.updated_at.toISOString() };
}

export const RESOURCE_EXAMPLE: ResourceResponse = {
  id: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e',
  name: 'orders-db',
  type: 'postgres',
  config: { host: 'db.internal', port: 5432, database: 'orders', password_secret: 'ORDERS_DB_PASSWORD' },
  description: 'Orders database, read replica',
  created_at: '2026-11-22T10:00:00.000Z',
  updated_at: '2026-11-22T10:00:00.000Z',
};
