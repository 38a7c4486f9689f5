import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMinSize, IsOptional, IsString, MaxLength } from 'class-validator';
import { MaxItems } from '@platform/service';

/** Recipients that replace an email channel's `to` for one send or notice (the composer checks each is an address). */
export const RecipientsOverride = (example: string[]) =>
  applyDecorators(
    ApiPropertyOptional({ type: [String], example, description: "email channels: the recipients (default: the channel's `to`)" }),
    IsOptional(),
    ArrayMinSize(1),
    MaxItems(50),
    IsString({ each: true }),
    MaxLength(320, { each: true }),
  );
