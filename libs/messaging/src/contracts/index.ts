import type { AccountEvents, AccountRequests } from './account.contract.js';
import type { AiRuntimeEvents, AiRuntimeRequests } from './ai-runtime.contract.js';
import type { CatalogEvents, CatalogRequests } from './catalog.contract.js';
import type { CatalogConnectorRequests } from './catalog-connectors.contract.js';
import type { ConnectionEvents, ConnectionRequests } from './connection.contract.js';
import type { KbWorkerEvents, KbWorkerRequests } from './kb-worker.contract.js';
import type { NotificationEvents, NotificationRequests } from './notification.contract.js';
import type { PortalEvents, PortalRequests } from './portal.contract.js';
import type { RunEvents, RunRequests } from './run.contract.js';
import type { StorageEvents, StorageRequests } from './storage.contract.js';
import type { SubscriptionEvents, SubscriptionRequests } from './subscription.contract.js';
import type { TaskEvents, TaskRequests } from './task.contract.js';
import type { TriggerEvents, TriggerRequests } from './trigger.contract.js';
import type { WebhookEvents, WebhookRequests } from './webhook.contract.js';

export * from './account.contract.js';
export * from './ai-runtime.contract.js';
export * from './catalog.contract.js';
export * from './catalog-connectors.contract.js';
export * from './connection.contract.js';
export * from './kb-worker.contract.js';
export * from './notification.contract.js';
export * from './portal.contract.js';
export * from './run.contract.js';
export * from './storage.contract.js';
export * from './subscription.contract.js';
export * from './task.contract.js';
export * from './trigger.contract.js';
export * from './webhook.contract.js';

/** Every request subject with its request and response types. */
export interface RequestMap
  extends
    AccountRequests,
    AiRuntimeRequests,
    CatalogRequests,
    CatalogConnectorRequests,
    ConnectionRequests,
    KbWorkerRequests,
    NotificationRequests,
    PortalRequests,
    RunRequests,
    StorageRequests,
    SubscriptionRequests,
    TaskRequests,
    TriggerRequests,
    WebhookRequests {}

/** Every event subject with its payload type. */
export interface EventMap
  extends
    AccountEvents,
    AiRuntimeEvents,
    CatalogEvents,
    ConnectionEvents,
    KbWorkerEvents,
    NotificationEvents,
    PortalEvents,
    RunEvents,
    StorageEvents,
    SubscriptionEvents,
    TaskEvents,
    TriggerEvents,
    WebhookEvents {}

export type RequestSubject = keyof RequestMap;
export type EventSubject = keyof EventMap;
