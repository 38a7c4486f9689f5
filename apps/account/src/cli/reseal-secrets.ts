import { SEALED_RECORDS, SealedBox, masterKeyId, type MasterKeyRing, type SealedRecords, type SealedSecret } from '@platform/common';
import type { DataSource, EntityManager } from 'typeorm';

const BATCH = 500;

export interface ResealCount {
  what: string;
  resealed: number;
  current: number;
  /** Opened by no key of the ring: sealed under a key that is no longer held, or altered. */
  unreadable: number;
  /** Changed by a service while being re-sealed: left as the service wrote it. */
  changed: number;
}

export interface ResealReport {
  counts: ResealCount[];
  /** Storage data keys still wrapped by a previous master key (the storage service re-wraps them). */
  dataKeysUnderPrevious: number;
}

type Row = Record<string, unknown>;

/**
 * Re-seals every value of SEALED_RECORDS that a previous key of the ring sealed under the current
 * key, in batches of its own transaction, printing progress. A row a service changes meanwhile is
 * left alone (the update names the ciphertext it read). Safe to run again, and while the
 * platform serves: values under either key open in every process whose ring holds both.
 */
export async function resealSecrets(dataSource: DataSource, ring: MasterKeyRing, log: (line: string) => void): Promise<ResealReport> {
  log(`master key ring: ${ring.ids().join(', ')} (current ${masterKeyId(ring.current)})`);
  const counts: ResealCount[] = [];
  for (const records of Object.values(SEALED_RECORDS) as SealedRecords[]) {
    if (!(await dataSource.transaction((m) => tableExists(m, records.table)))) {
      log(`${records.what}: no ${records.table} table here, skipped`);
      continue;
    }
    counts.push(await resealTable(dataSource, ring, records, log));
  }
  const dataKeysUnderPrevious = await dataSource.transaction(async (m) =>
    (await tableExists(m, 'storage.data_keys')) ? countDataKeysNotUnder(m, masterKeyId(ring.current)) : 0,
  );
  log(
    dataKeysUnderPrevious
      ? `storage data keys: ${dataKeysUnderPrevious} not yet under the current key; the storage service re-wraps them at start and every SECRETS_REWRAP_INTERVAL_MS`
      : 'storage data keys: all under the current key',
  );
  return { counts, dataKeysUnderPrevious };
}

async function resealTable(dataSource: DataSource, ring: MasterKeyRing, records: SealedRecords, log: (line: string) => void): Promise<ResealCount> {
  const box = new SealedBox(ring, records.label);
  const count: ResealCount = { what: records.what, resealed: 0, current: 0, unreadable: 0, changed: 0 };
  let after: unknown[] | undefined;
  for (;;) {
    const rows = await dataSource.transaction(async (m) => {
      const batch = await selectBatch(m, records, after);
      for (const row of batch) {
        const tenant = 'fixed' in records.tenant ? records.tenant.fixed : String(row[records.tenant.column]);
        const bind = records.bind.map((column) => String(row[column]));
        const sealed: SealedSecret = { iv: row.iv as Buffer, ciphertext: row.ciphertext as Buffer, tag: row.tag as Buffer };
        let fresh: SealedSecret | undefined;
        try {
          fresh = box.reseal(tenant, bind, sealed);
        } catch {
          count.unreadable++;
          continue;
        }
        if (!fresh) count.current++;
        else if (await updateSealed(m, records, row, sealed, fresh)) count.resealed++;
        else count.changed++;
      }
      return batch;
    });
    if (rows.length) after = records.key.map((column) => rows[rows.length - 1][column]);
    if (rows.length < BATCH) break;
    log(`${records.what}: ${count.resealed + count.current + count.unreadable + count.changed} checked…`);
  }
  log(
    `${records.what}: ${count.resealed} re-sealed, ${count.current} already under the current key, ${count.unreadable} unreadable, ${count.changed} changed meanwhile`,
  );
  return count;
}

const columns = (records: SealedRecords) => [...new Set([...records.key, ...('column' in records.tenant ? [records.tenant.column] : []), ...records.bind])];

function selectBatch(m: EntityManager, records: SealedRecords, after: unknown[] | undefined): Promise<Row[]> {
  const { prefix, key, table } = records;
  const keyList = key.join(', ');
  const placeholders = key.map((_, i) => `$${i + 2}`).join(', ');
  // Keyset pagination over the primary key; rows are locked so a concurrent update waits for the batch.
  return m.query<Row[]>(
    `select ${columns(records).join(', ')}, ${prefix}_iv as iv, ${prefix}_ciphertext as ciphertext, ${prefix}_tag as tag
       from ${table}
      where ${prefix}_iv is not null ${after ? `and (${keyList}) > (${placeholders})` : ''}
      order by ${keyList} limit $1 for update`,
    [BATCH, ...(after ?? [])],
  );
}

async function updateSealed(m: EntityManager, records: SealedRecords, row: Row, old: SealedSecret, fresh: SealedSecret): Promise<boolean> {
  const { prefix, key, table } = records;
  const where = key.map((column, i) => `${column} = $${i + 5}`).join(' and ');
  const result = await m.query<[unknown[], number]>(
    `update ${table} set ${prefix}_iv = $1, ${prefix}_ciphertext = $2, ${prefix}_tag = $3 where ${prefix}_ciphertext = $4 and ${where}`,
    [fresh.iv, fresh.ciphertext, fresh.tag, old.ciphertext, ...key.map((column) => row[column])],
  );
  return result[1] === 1;
}

async function tableExists(m: EntityManager, table: string): Promise<boolean> {
  const rows = await m.query<{ found: string | null }[]>(`select to_regclass($1) as found`, [table]);
  return rows[0].found !== null;
}

async function countDataKeysNotUnder(m: EntityManager, currentId: string): Promise<number> {
  const rows = await m.query<{ n: number }[]>(`select count(*)::int as n from storage.data_keys where master_key_id <> $1`, [currentId]);
  return rows[0].n;
}
