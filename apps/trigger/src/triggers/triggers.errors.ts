import { NotFoundError, ValidationFailedError, type FieldError } from '@platform/common';

export const TriggerErrors = {
  notFound: () => new NotFoundError('Trigger'),
  invalid: (details: FieldError[]) => new ValidationFailedError(details),
};
