import { forbidden } from '@platform/auth';
import { ConflictError, NotFoundError, ValidationFailedError } from '@platform/common';
import { MAX_SECRET_BYTES } from './secret.record.js';

/** The secrets feature's errors. None of them ever carries a secret's value. */
export const SecretErrors = {
  notFound: () => new NotFoundError('Secret'),
  duplicate: (name: string) => new ConflictError('duplicate_secret', `A secret named '${name}' already exists in this environment`),
  invalidName: () => new ValidationFailedError([{ field: 'name', message: 'must be 1 to 128 characters of A-Z, a-z, 0-9, _, . and -' }]),
  valueTooLarge: () => new ValidationFailedError([{ field: 'value', message: `must be at most ${MAX_SECRET_BYTES} bytes (UTF-8)` }]),
  /** Secrets are tenant configuration: customer-scoped credentials neither read nor manage them. */
  customerScoped: () => forbidden(),
};
