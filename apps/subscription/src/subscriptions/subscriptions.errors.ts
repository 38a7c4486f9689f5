import { ConflictError, ValidationFailedError } from '@platform/common';

/** The subscription feature's errors. */
export const SubscriptionErrors = {
  unknownPlan: (plan: string) => new ValidationFailedError([{ field: 'plan', message: `plan must be an existing plan code ('${plan}' is not one)` }]),
  samePlan: (plan: string) => new ConflictError('same_plan', `The subscription is already on plan '${plan}'`),
};
