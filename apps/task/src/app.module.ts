import { Module } from '@nestjs/common';
import { TasksModule } from './tasks/tasks.module.js';

/** The service's features; platform concerns (health, auth, database, NATS) come from bootstrapService. */
@Module({ imports: [TasksModule] })
export class AppModule {}
