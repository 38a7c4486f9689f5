import { runServiceThread } from '@platform/service';
import { DeliveryModule } from './delivery.module.js';

await runServiceThread({ service: 'notification', module: DeliveryModule, name: 'delivery' });
