import { Module } from '@nestjs/common';
import { Bus } from '@platform/messaging';
import { StepRegistry } from '../step-registry.js';
import { actionSteps } from './index.js';

/** The action step types, registered once: the engine runs them, workflows/ validates definitions with them. */
@Module({
  providers: [
    {
      provide: StepRegistry,
      useFactory: (bus: Bus) => {
        const registry = new StepRegistry();
        registry.register(...actionSteps(bus));
        return registry;
      },
      inject: [Bus],
    },
  ],
  exports: [StepRegistry],
})
export class StepsModule {}
