import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMinSize, IsArray, IsIn, IsOptional, IsString, IsUrl, Matches, MaxLength, MinLength, ValidateNested } from 'class-validator';
import { MaxItems } from '@platform/service';

const URL_RULES = { protocols: ['https', 'http'], require_tld: false, require_protocol: true };
export const API_KEY_HEADERS = ['authorization', 'api-key'] as const;

export class ProviderModelDto {
  @ApiProperty({ example: 'gpt-4o-mini', description: "The provider's own model id (sent as `model`)" })
  @IsString()
  @MinLength(1)
  @MaxLength(150)
  id!: string;

  @ApiProperty({ enum: ['chat', 'embedding'], example: 'chat' })
  @IsIn(['chat', 'embedding'])
  kind!: 'chat' | 'embedding';
}

export class CreateProviderRequestDto {
  @ApiProperty({
    example: 'openai',
    description: 'Unique in the environment; models are named `<name>/<model id>`. Lower-case letters, digits and dashes; `local` is the built-in provider.',
  })
  @IsString()
  @Matches(/^(?!local$)[a-z0-9][a-z0-9-]{0,39}$/, { message: 'must be 1-40 lower-case letters, digits or dashes, and not "local"' })
  name!: string;

  @ApiProperty({
    example: 'https://api.openai.com/v1',
    description: 'Base URL of the OpenAI-compatible API (vLLM, Ollama: http://host:11434/v1, llama.cpp server, Azure OpenAI v1)',
  })
  @IsUrl(URL_RULES)
  @MaxLength(2000)
  base_url!: string;

  @ApiPropertyOptional({ example: 'sk-…', description: 'Write-only; sealed at rest and never returned', writeOnly: true })
  @IsOptional()
  @IsString()
  @MaxLength(4096)
  api_key?: string;

  @ApiPropertyOptional({
    enum: API_KEY_HEADERS,
    default: 'authorization',
    description: '`authorization` sends `Bearer <key>`; `api-key` (Azure OpenAI) sends the key in an `api-key` header',
  })
  @IsOptional()
  @IsIn(API_KEY_HEADERS)
  api_key_header?: 'authorization' | 'api-key';

  @ApiProperty({
    type: [ProviderModelDto],
    example: [
      { id: 'gpt-4o-mini', kind: 'chat' },
      { id: 'text-embedding-3-small', kind: 'embedding' },
    ],
  })
  @IsArray()
  @ArrayMinSize(1)
  @MaxItems(100)
  @ValidateNested({ each: true })
  @Type(() => ProviderModelDto)
  models!: ProviderModelDto[];
}

export class UpdateProviderRequestDto {
  @ApiPropertyOptional({ example: 'https://api.openai.com/v1' })
  @IsOptional()
  @IsUrl(URL_RULES)
  @MaxLength(2000)
  base_url?: string;

  @ApiPropertyOptional({ example: 'sk-…', description: 'Replaces the key; an empty string removes it', writeOnly: true })
  @IsOptional()
  @IsString()
  @MaxLength(4096)
  api_key?: string;

  @ApiPropertyOptional({ enum: API_KEY_HEADERS })
  @IsOptional()
  @IsIn(API_KEY_HEADERS)
  api_key_header?: 'authorization' | 'api-key';

  @ApiPropertyOptional({ type: [ProviderModelDto] })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @MaxItems(100)
  @ValidateNested({ each: true })
  @Type(() => ProviderModelDto)
  models?: ProviderModelDto[];
}
