/**
 * Tells every gateway that a tenant's limits changed (after a plan change). limits/ implements it
 * (LimitsService) and SubscriptionModule binds the two, so subscriptions/ does not depend on
 * limits/, which reads the subscription.
 */
export abstract class LimitsPublisher {
  abstract publish(tenantId: string): Promise<void>;
}
