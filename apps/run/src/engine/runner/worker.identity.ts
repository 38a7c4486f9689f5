import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { Inject, Injectable } from '@nestjs/common';
import { RUN_CONFIG, type RunConfig } from '../../config/run.config.js';
import type { Claim } from '../execution.records.js';

/** This process as a worker: its id in leases and log lines, and the lease it takes on what it runs. */
@Injectable()
export class WorkerIdentity {
  readonly id = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  readonly claim: Claim;

  constructor(@Inject(RUN_CONFIG) config: RunConfig) {
    this.claim = { worker: this.id, leaseMs: config.RUN_LEASE_MS };
  }
}
