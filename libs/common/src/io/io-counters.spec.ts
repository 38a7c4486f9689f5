import { describe, expect, it } from '@jest/globals';
import { runInRequestContext } from '../context/request-context.js';
import { countIo, enableIoCounters, ioCountsReport } from './io-counters.js';

describe('IO counters', () => {
  it('count nothing until switched on, then per request, by context or by the id given, and background outside any', () => {
    countIo('db.roundTrips');
    expect(ioCountsReport('r-')).toEqual({ total: {}, background: {}, requests: {} });

    enableIoCounters();
    runInRequestContext({ requestId: 'r-1' }, () => {
      countIo('db.roundTrips');
      countIo('db.statements', 2);
    });
    countIo('js.acks', 1, 'r-1');
    countIo('nats.publishes', 1, 'other');
    countIo('db.roundTrips');

    const report = ioCountsReport('r-');
    expect(report.requests).toEqual({ 'r-1': { 'db.roundTrips': 1, 'db.statements': 2, 'js.acks': 1 } });
    expect(report.background).toEqual({ 'db.roundTrips': 1 });
    expect(report.total).toEqual({ 'db.roundTrips': 2, 'db.statements': 2, 'js.acks': 1, 'nats.publishes': 1 });
    // Without a prefix, no request is listed: the report stays small.
    expect(ioCountsReport().requests).toEqual({});
  });
});
