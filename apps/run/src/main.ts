import { bootstrapService } from '@platform/service';
import { AppModule } from './app.module.js';
import { RunConfig } from './config/run.config.js';
import { WORKFLOW_STEP_SCHEMA } from './workflows/definition/definition.schema.js';
import { STEP_INPUT_COMPONENTS } from './workflows/definition/step-inputs.schema.js';

await bootstrapService({
  service: 'run',
  module: AppModule,
  config: RunConfig,
  openApiSchemas: { WorkflowStep: WORKFLOW_STEP_SCHEMA, ...STEP_INPUT_COMPONENTS },
});
