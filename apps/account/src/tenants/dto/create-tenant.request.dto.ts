import { ApiProperty } from '@nestjs/swagger';
import { IsEmail, IsString, Length } from 'class-validator';

export class CreateTenantRequestDto {
  @ApiProperty({ example: 'Acme Inc.' })
  @IsString()
  @Length(1, 200)
  name!: string;

  @ApiProperty({ example: 'owner@acme.test' })
  @IsEmail()
  owner_email!: string;
}

export class SignupRequestDto {
  @ApiProperty({ example: 'Acme Inc.', description: 'Name of the tenant to create, owned by the signed-in user' })
  @IsString()
  @Length(1, 200)
  tenant_name!: string;
}
