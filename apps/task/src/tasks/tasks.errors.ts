import { AppError, ConflictError, NotFoundError, ValidationFailedError, type FieldError } from '@platform/common';

/** The task feature's errors. Another tenant's task is `notFound`, exactly like an unknown id. */
export const TaskErrors = {
  notFound: () => new NotFoundError('Task'),
  notOpen: (status: string) =>
    new ConflictError(
      `task_${status}`,
      status === 'completed'
        ? 'The task has already been completed'
        : status === 'expired'
          ? 'The task has expired: its deadline passed'
          : 'The task was cancelled: its execution ended',
    ),
  completedMeanwhile: () => new ConflictError('task_completed', 'The task has already been completed'),
  wrongDecision: (allowed: string[]) => new ValidationFailedError([{ field: 'decision', message: `must be one of ${allowed.join(', ')} for this task` }]),
  /** A link asked for decisions the task does not take: the field is the link's list. */
  wrongLinkDecisions: (allowed: string[]) => new ValidationFailedError([{ field: 'decisions', message: `may only hold ${allowed.join(', ')} for this task` }]),
  invalidData: (details: FieldError[]) => new ValidationFailedError(details),
  invalidForm: (message: string) => new AppError('invalid_form_schema', 400, `The task's form schema cannot be used: ${message}`),
  notAssignee: () => new AppError('forbidden', 403, "You don't have permission to access this resource"),
  unknownAssignee: (field: string, what: string) => new ValidationFailedError([{ field, message: `is not ${what} of this tenant` }]),
  dataTooLarge: (size: number, limit: number) =>
    new AppError('data_too_large', 413, `data is ${size} bytes as JSON; the limit is ${limit} (TASK_DATA_LIMIT_BYTES)`),
  linkInvalid: () => new NotFoundError('Link'),
  linkExpired: () => new AppError('link_expired', 410, 'The link has expired'),
  linkUsed: () => new ConflictError('link_used', 'The link has already been used'),
};
