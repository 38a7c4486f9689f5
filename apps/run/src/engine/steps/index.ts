import type { Bus } from '@platform/messaging';
import { aiSteps } from './ai.steps.js';
import { CodeStep } from './code.step.js';
import { ConnectorStep } from './connector.step.js';
import { HttpRequestStep } from './http-request.step.js';
import { NotificationStep } from './notification.step.js';
import type { StepExecutor } from './step-executor.js';
import { storageSteps } from './storage.steps.js';
import { TransformStep } from './transform.step.js';

/** Every action step type of the platform; a new one is added here (and nowhere in the engine). */
export function actionSteps(bus: Bus): StepExecutor[] {
  return [new TransformStep(), new HttpRequestStep(), new CodeStep(), new NotificationStep(bus), new ConnectorStep(bus), ...storageSteps(bus), ...aiSteps(bus)];
}
