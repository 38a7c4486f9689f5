import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsUUID, Matches, MaxLength } from 'class-validator';

export class StartOAuthRequestDto {
  @ApiProperty({ format: 'uuid', description: 'An oauth2_code connection' })
  @IsUUID()
  connection_id!: string;

  @ApiPropertyOptional({
    description:
      'Where the provider sends the user back: the public URL of GET /connections/oauth/callback, as registered with the provider (default: CONNECTION_OAUTH_REDIRECT_URL)',
    example: 'https://api.example.com/connections/oauth/callback',
  })
  @IsOptional()
  @Matches(/^https?:\/\/\S+\/connections\/oauth\/callback$/, { message: 'must be the URL of /connections/oauth/callback' })
  @MaxLength(2048)
  redirect_uri?: string;

  @ApiPropertyOptional({
    description: 'Where the callback sends the browser afterwards (with `connection_id` and `status`)',
    example: 'https://app.example.com/integrations',
  })
  @IsOptional()
  @Matches(/^https?:\/\/\S+$/, { message: 'must be an http(s) URL' })
  @MaxLength(2048)
  return_url?: string;
}

export class StartOAuthResponseDto {
  @ApiProperty({
    description: "Send the user's browser here",
    example: 'https://slack.com/oauth/v2/authorize?response_type=code&client_id=…&code_challenge=…&code_challenge_method=S256&state=…',
  })
  authorization_url!: string;
  @ApiProperty({ format: 'date-time', description: 'The flow must finish before this' })
  state_expires_at!: string;
}

export class OAuthCallbackResponseDto {
  @ApiProperty() ok!: boolean;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) connection_id!: string | null;
  @ApiProperty() message!: string;
}
