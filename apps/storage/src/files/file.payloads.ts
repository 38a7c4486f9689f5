import { IsInt, IsOptional, IsString, IsUUID, Matches, Max, MaxLength, Min } from 'class-validator';

/** `storage.files.read` (workflow step `file.read`); validated where consumed. */
export class FileReadPayload {
  @IsUUID()
  fileId!: string;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(100 * 1024 * 1024)
  maxBytes?: number;
}

/** `storage.files.write` (workflow step `file.write`). */
export class FileWritePayload {
  @IsString()
  @MaxLength(1024)
  name!: string;

  @IsOptional()
  @IsString()
  @Matches(/^[\w.+-]+\/[\w.+-]+$/, { message: 'must be a media type such as text/csv' })
  @MaxLength(255)
  contentType?: string;

  @IsString()
  contentBase64!: string;
}

export const DEFAULT_MESSAGE_READ_BYTES = 10 * 1024 * 1024;
