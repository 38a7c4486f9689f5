import { IsInt, IsObject, IsOptional, IsString, IsUUID, Length, Max, Min, ValidateIf } from 'class-validator';

export class CreateCustomerPayload {
  @IsString()
  @Length(1, 200)
  name!: string;

  @ValidateIf((o: CreateCustomerPayload) => o.external_id !== undefined && o.external_id !== null)
  @IsString()
  @Length(1, 200)
  external_id?: string | null;

  @IsOptional()
  @IsObject()
  metadata?: Record<string, unknown>;
}

export class CustomerIdPayload {
  @IsUUID()
  id!: string;
}

export class UpdateCustomerPayload {
  @IsUUID()
  id!: string;

  @IsOptional()
  @IsString()
  @Length(1, 200)
  name?: string;

  @ValidateIf((o: UpdateCustomerPayload) => o.external_id !== undefined && o.external_id !== null)
  @IsString()
  @Length(1, 200)
  external_id?: string | null;

  @IsOptional()
  @IsObject()
  metadata?: Record<string, unknown>;
}

export class ListCustomersPayload {
  @IsInt()
  @Min(1)
  @Max(200)
  limit!: number;

  @IsOptional()
  @IsString()
  cursor?: string;

  @IsOptional()
  @IsString()
  external_id?: string;
}

export class ResolveCustomerPayload {
  @IsString()
  customerId!: string;
}
