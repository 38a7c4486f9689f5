import { bootstrapService } from '@platform/service';
import { AppModule } from './app.module.js';

await bootstrapService({ service: 'ai-runtime', module: AppModule });
