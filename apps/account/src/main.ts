import { bootstrapService } from '@platform/service';
import { AppModule } from './app.module.js';
import { AccountConfig } from './config/account.config.js';

await bootstrapService({ service: 'account', module: AppModule, config: AccountConfig });
