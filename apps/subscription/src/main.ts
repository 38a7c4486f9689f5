import { bootstrapService } from '@platform/service';
import { AppModule } from './app.module.js';

await bootstrapService({ service: 'subscription', module: AppModule });
