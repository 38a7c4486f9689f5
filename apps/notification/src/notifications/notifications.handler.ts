import { Controller } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { NotificationSubjects, SendNotificationRequest, TenantPayload, type NotificationQueued, type TenantMessage } from '@platform/messaging';
import { NotificationsService } from './notifications.service.js';

/** Notifications over NATS: the workflow `notification` step sends through the same path as the API. */
@Controller()
export class NotificationsHandler {
  constructor(private readonly notifications: NotificationsService) {}

  @MessagePattern(NotificationSubjects.notificationsSend)
  send(@TenantPayload(SendNotificationRequest) { tenant, context, body }: TenantMessage<SendNotificationRequest>): Promise<NotificationQueued> {
    return this.notifications.send({ ...tenant, requestId: context.requestId }, body);
  }
}
