import { bootstrapService } from '@platform/service';
import { AppModule } from './app.module.js';
import { PLANNED_ROUTES } from './planned-routes.js';

await bootstrapService({ service: 'kb-worker', module: AppModule, plannedRoutes: PLANNED_ROUTES });
