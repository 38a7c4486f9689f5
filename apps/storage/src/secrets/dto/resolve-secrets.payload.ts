import { ArrayMaxSize, ArrayMinSize, IsArray, IsString, Matches } from 'class-validator';
import { SECRET_NAME } from '../secret.record.js';

/** `storage.secrets.resolve`: validated where consumed, like an HTTP body. */
export class ResolveSecretsPayload {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(200)
  @IsString({ each: true })
  @Matches(SECRET_NAME, { each: true, message: 'each name must be 1 to 128 characters of A-Z, a-z, 0-9, _, . and -' })
  names!: string[];

  /** Recorded in the access log; the contract's callers are the run and connection services. */
  @IsString()
  @Matches(/^(run|connection):[\x21-\x7e]{1,200}$/, { message: "must be 'run:<…>' or 'connection:<…>' (who reads, e.g. run:execution:<id>)" })
  purpose!: string;
}
