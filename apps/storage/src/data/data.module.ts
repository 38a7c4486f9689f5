import { Module } from '@nestjs/common';
import { DataRowsController } from './data-rows.controller.js';
import { DataRowsService } from './data-rows.service.js';
import { DataTablesController } from './data-tables.controller.js';
import { DataTablesService } from './data-tables.service.js';
import { DATA_CONFIG, loadDataConfig } from './data.config.js';
import { DataHandler } from './data.handler.js';
import { DataQueryController } from './query/data-query.controller.js';
import { DataQueryService } from './query/data-query.service.js';

/** Data feature of the storage service: data tables, their rows, `/v1/data/query` and the workflow steps. */
@Module({
  controllers: [DataTablesController, DataRowsController, DataQueryController, DataHandler],
  providers: [
    // Loaded here so a bad setting stops start-up with a clear message (ConfigError).
    { provide: DATA_CONFIG, useFactory: () => loadDataConfig() },
    DataTablesService,
    DataRowsService,
    DataQueryService,
  ],
})
export class DataModule {}
