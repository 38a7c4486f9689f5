import { IsUUID } from 'class-validator';
import type { WorkQueueSpec } from '../jetstream/work-queue.js';
import { RunSubjects } from './run.contract.js';
import { StorageSubjects } from './storage.contract.js';
import { TaskSubjects } from './task.contract.js';
import { WebhookSubjects } from './webhook.contract.js';

/** Subjects the trigger service answers or emits. Added here as its features are built. */
export const TriggerSubjects = {
  /**
   * Event, fanned out to every trigger replica: a tenant's triggers changed (created, updated,
   * enabled, disabled, deleted); drop what is cached of what they listen for.
   */
  listenersChanged: 'trigger.listeners.changed',
} as const;

export class ListenersChangedEvent {
  @IsUUID()
  tenantId!: string;

  @IsUUID()
  environmentId!: string;
}

/** None yet: added here as the service's features are built. */
export type TriggerRequests = Record<never, never>;

export interface TriggerEvents {
  [TriggerSubjects.listenersChanged]: ListenersChangedEvent;
}

/**
 * What became of one firing of a trigger, as `trigger.executions.status` stores it (its check
 * constraint allows exactly these; apps/run/test/vocabularies.store.int-spec.ts): `pending` until
 * its run is started, then `started`, `skipped` (a missed schedule slot under the `skip` policy)
 * or `failed` (the run could not be started).
 */
export const TRIGGER_FIRING_STATUSES = ['pending', 'started', 'skipped', 'failed'] as const;
export type TriggerFiringStatus = (typeof TRIGGER_FIRING_STATUSES)[number];

/**
 * The platform events event triggers consume, captured durably: a JetStream work-queue stream
 * over the run service's status events, storage's uploads and the task service's task facts
 * (a stream captures plain publishes), and webhook deliveries (published through JetStream), so an event published
 * while no trigger replica runs is handled when one starts. The items are the
 * events' packets as published (`{ pattern, data: { context, data } }`), not work envelopes.
 */
export const TRIGGER_EVENTS_QUEUE: WorkQueueSpec = {
  stream: 'TRIGGER_EVENTS',
  subjects: [
    RunSubjects.executionStarted,
    RunSubjects.executionCompleted,
    RunSubjects.executionFailed,
    RunSubjects.executionCancelled,
    RunSubjects.executionTimedOut,
    StorageSubjects.fileUploaded,
    TaskSubjects.taskCreated,
    TaskSubjects.taskAssigned,
    TaskSubjects.taskCompleted,
    TaskSubjects.taskExpired,
    WebhookSubjects.deliveryReceived,
  ],
  consumer: 'trigger-events',
  maxDeliver: 10,
  ackWaitMs: 30_000,
  deadLetterSubject: 'trigger.events.dead',
};
