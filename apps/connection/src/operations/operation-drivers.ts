import { Injectable } from '@nestjs/common';
import { HttpOperation } from './http-operation.js';
import type { OperationCall, OperationResult } from './operation.types.js';
import { PostgresOperation } from './postgres-operation.js';
import { SmtpOperation } from './smtp-operation.js';

/** The connector's driver runs the call: declarative HTTP, or the code of the connectors a definition cannot describe. */
@Injectable()
export class OperationDrivers {
  constructor(
    private readonly http: HttpOperation,
    private readonly postgres: PostgresOperation,
    private readonly smtp: SmtpOperation,
  ) {}

  run(call: OperationCall): Promise<OperationResult> {
    switch (call.definition.driver) {
      case 'postgres':
        return this.postgres.run(call);
      case 'smtp':
        return this.smtp.run(call);
      default:
        return this.http.run(call);
    }
  }
}
