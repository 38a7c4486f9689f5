import { STORAGE_LIMITS } from '@platform/messaging';
/** The column types of a data table (API-CONTRACT) and the PostgreSQL type each is stored as. */
export const COLUMN_TYPES = ['text', 'number', 'boolean', 'timestamp', 'json'] as const;
export type ColumnType = (typeof COLUMN_TYPES)[number];

export const PG_TYPES: Readonly<Record<ColumnType, string>> = {
  text: 'text',
  number: 'float8',
  boolean: 'bool',
  timestamp: 'timestamptz',
  json: 'jsonb',
};

/** A column as the catalogue stores it: `physical` is its generated name in the physical table. */
export interface ColumnDefinition {
  name: string;
  type: ColumnType;
  nullable: boolean;
  unique: boolean;
  physical: string;
}

/** A row of storage.data_tables. */
export interface DataTableRow {
  id: string;
  name: string;
  columns: ColumnDefinition[];
  indexes: string[][];
  created_at: Date;
  updated_at: Date;
}

export const DATA_TABLE_COLUMNS = 'id, name, columns, indexes, created_at, updated_at';

/** Columns every data table has besides its own; clients read them, never write them. */
export const SYSTEM_COLUMNS = ['id', 'created_at', 'updated_at'] as const;

export interface DataTableResponse {
  name: string;
  columns: { name: string; type: ColumnType; nullable: boolean; unique: boolean }[];
  indexes: string[][];
  created_at: string;
  updated_at: string;
}

export const TABLE_NAME = STORAGE_LIMITS.tableName;
export const COLUMN_NAME = TABLE_NAME;

/** `t_<id without dashes>` in the storage_data schema: generated, never from user input. */
export function physicalTable(id: string): string {
  return `t_${id.replace(/-/g, '')}`;
}

export function qualifiedPhysicalTable(id: string): string {
  return `storage_data."${physicalTable(id)}"`;
}

export function toDataTableResponse(row: DataTableRow): DataTableResponse {
  return {
    name: row.name,
    columns: row.columns.map((c) => ({ name: c.name, type: c.type, nullable: c.nullable, unique: c.unique })),
    indexes: row.indexes,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
