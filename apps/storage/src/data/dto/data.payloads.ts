import { ArrayMaxSize, ArrayMinSize, IsArray, IsObject, IsOptional, IsString, IsUUID, Matches, MaxLength, MinLength } from 'class-validator';
import { TABLE_NAME } from '../data-table.record.js';
import { MAX_BULK_ROWS } from '../data-rows.service.js';
import { MAX_PARAMS, MAX_QUERY_LENGTH } from './data-query.request.dto.js';

/** Payloads of the `storage.data.*` subjects (workflow steps), validated where consumed. */
export class DataQueryPayload {
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_QUERY_LENGTH)
  query!: string;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_PARAMS)
  params?: unknown[];
}

export class DataInsertPayload {
  @IsString()
  @Matches(TABLE_NAME, { message: 'must match [a-z_][a-z0-9_]{0,62}' })
  table!: string;

  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_BULK_ROWS)
  rows!: unknown[];
}

export class DataUpdatePayload {
  @IsString()
  @Matches(TABLE_NAME, { message: 'must match [a-z_][a-z0-9_]{0,62}' })
  table!: string;

  @IsUUID()
  id!: string;

  @IsObject()
  values!: Record<string, unknown>;
}

export class DataDeletePayload {
  @IsString()
  @Matches(TABLE_NAME, { message: 'must match [a-z_][a-z0-9_]{0,62}' })
  table!: string;

  @IsUUID()
  id!: string;
}
