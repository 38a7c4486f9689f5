import type { LoggerService } from '@nestjs/common';
import type { Logger as PinoLogger } from 'pino';

/**
 * NestJS's own start-up lines: a line per module initialised, per controller and per route
 * mapped (over 200 for the platform), and "starting"/"started". At debug: at info they buried the
 * lines that matter; each service logs one line of its own when it listens.
 */
const START_UP_CONTEXTS = new Set(['NestFactory', 'InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestApplication', 'NestMicroservice']);

/** Routes NestJS's own log lines into the JSON logger. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: PinoLogger) {}

  log(message: unknown, context?: string) {
    this.write(context !== undefined && START_UP_CONTEXTS.has(context) ? 'debug' : 'info', message, context);
  }
  error(message: unknown, stackOrContext?: string, context?: string) {
    const ctx = context ?? (stackOrContext && !stackOrContext.includes('\n') ? stackOrContext : undefined);
    const stack = stackOrContext?.includes('\n') ? stackOrContext : undefined;
    if (typeof message === 'object' && message !== null && !(message instanceof Error)) {
      this.logger.error({ context: ctx, stack, ...message });
    } else {
      this.logger.error({ context: ctx, stack }, String(message instanceof Error ? message.message : message));
    }
  }
  warn(message: unknown, context?: string) {
    this.write('warn', message, context);
  }
  debug(message: unknown, context?: string) {
    this.write('debug', message, context);
  }
  verbose(message: unknown, context?: string) {
    this.write('trace', message, context);
  }
  fatal(message: unknown, context?: string) {
    this.write('fatal', message, context);
  }

  private write(level: 'info' | 'warn' | 'debug' | 'trace' | 'fatal', message: unknown, context?: string) {
    if (typeof message === 'object' && message !== null) this.logger[level]({ context, ...message });
    else this.logger[level]({ context }, String(message));
  }
}
