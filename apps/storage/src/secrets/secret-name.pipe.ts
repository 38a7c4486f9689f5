import { Injectable, type PipeTransform } from '@nestjs/common';
import { SECRET_NAME } from './secret.record.js';
import { SecretErrors } from './secrets.errors.js';

/** A secret name in a path: a malformed one is the client's mistake (400), like a bad UUID. */
@Injectable()
export class SecretNamePipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (typeof value !== 'string' || !SECRET_NAME.test(value)) throw SecretErrors.invalidName();
    return value;
  }
}
