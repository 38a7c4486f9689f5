import type { MigrationInterface, QueryRunner } from 'typeorm';
import { applyTenantRls, tenantRlsStatements } from '@platform/db';

/**
 * User data tables: a catalogue (`storage.data_tables`, one row per table: its name and typed
 * columns) and one physical table per data table in the `storage_data` schema, with real typed
 * columns so filters and aggregates use PostgreSQL's planner and indexes.
 *
 * The application role has no DDL rights. It creates and drops physical tables through two
 * SECURITY DEFINER functions owned by the owner role, which build the DDL themselves from the
 * catalogue row the caller's tenant can see (RLS is forced, so the owner sees only the caller's
 * rows too): no user-supplied text ever reaches the DDL. Physical names are generated
 * (`t_<table id hex>`, columns `c1…cN`), so the catalogs reveal nothing about a tenant's data.
 *
 * Text columns use the "C" collation: comparisons, sorts and GROUP BY by code point (UTF-8 byte
 * order), the same on every server whatever its default locale, and several times faster than
 * a linguistic collation.
 */
const PLACEHOLDER = 'storage_data.__physical__';

/** The standard policy of libs/db, frozen into the function as this migration writes it. */
const rlsStatements = tenantRlsStatements(PLACEHOLDER, { scope: 'owned' });

const dollar = (sql: string) => {
  if (sql.includes('$rls$')) throw new Error('unexpected dollar quote in RLS statement');
  return `$rls$${sql}$rls$`;
};

export class CreateDataTables1764000003000 implements MigrationInterface {
  name = 'CreateDataTables1764000003000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`create table storage.data_tables (
      tenant_id uuid not null,
      environment_id uuid not null,
      id uuid not null,
      name text not null check (name ~ '^[a-z_][a-z0-9_]{0,62}$'),
      columns jsonb not null check (jsonb_typeof(columns) = 'array'),
      indexes jsonb not null default '[]' check (jsonb_typeof(indexes) = 'array'),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      created_by text,
      primary key (tenant_id, id),
      unique (tenant_id, environment_id, name))`);
    await applyTenantRls(q, 'storage.data_tables');

    await q.query(`create function storage.create_data_table(p_id uuid) returns text
      language plpgsql security definer
      set search_path = pg_catalog, pg_temp
    as $fn$
    declare
      def record;
      physical text;
      col jsonb;
      col_sql text := '';
      unique_sql text := '';
      pg_type text;
      idx jsonb;
      idx_sql text;
      member text;
      member_physical text;
      n int := 0;
    begin
      -- Forced RLS: only a catalogue row of the caller's tenant and environment is found.
      select d.tenant_id, d.environment_id, d.id, d.columns, d.indexes into def
        from storage.data_tables d where d.id = p_id;
      if not found then
        raise exception 'no data table % in this tenant', p_id using errcode = 'no_data_found';
      end if;
      physical := 't_' || replace(def.id::text, '-', '');
      for col in select value from jsonb_array_elements(def.columns) loop
        if coalesce(col->>'physical', '') !~ '^c[0-9]{1,3}$' then
          raise exception 'invalid physical column name' using errcode = 'invalid_parameter_value';
        end if;
        pg_type := case col->>'type'
          when 'text' then 'text collate "C"'
          when 'number' then 'double precision'
          when 'boolean' then 'boolean'
          when 'timestamp' then 'timestamptz'
          when 'json' then 'jsonb'
        end;
        if pg_type is null then
          raise exception 'invalid column type' using errcode = 'invalid_parameter_value';
        end if;
        col_sql := col_sql || format(', %I %s%s', col->>'physical', pg_type,
          case when coalesce((col->>'nullable')::boolean, true) then '' else ' not null' end);
        if coalesce((col->>'unique')::boolean, false) then
          unique_sql := unique_sql || format(', constraint %I unique (tenant_id, environment_id, %I)',
            physical || '_u_' || (col->>'physical'), col->>'physical');
        end if;
      end loop;
      -- The checks pin every row to the table's tenant and environment, whatever a caller tries.
      execute format('create table storage_data.%I (
          tenant_id uuid not null check (tenant_id = %L::uuid),
          environment_id uuid not null check (environment_id = %L::uuid),
          scope_id uuid,
          id uuid not null,
          created_at timestamptz not null default now(),
          updated_at timestamptz not null default now()%s,
          constraint %I primary key (tenant_id, environment_id, id)%s)',
        physical, def.tenant_id, def.environment_id, col_sql, physical || '_pkey', unique_sql);
      for idx in select value from jsonb_array_elements(def.indexes) loop
        n := n + 1;
        idx_sql := '';
        for member in select value from jsonb_array_elements_text(idx) loop
          member_physical := case when member in ('id', 'created_at', 'updated_at') then member
            else (select c->>'physical' from jsonb_array_elements(def.columns) c where c->>'name' = member) end;
          if member_physical is null then
            raise exception 'index names an unknown column' using errcode = 'invalid_parameter_value';
          end if;
          idx_sql := idx_sql || format(', %I', member_physical);
        end loop;
        execute format('create index %I on storage_data.%I (tenant_id, environment_id%s)', physical || '_i' || n, physical, idx_sql);
      end loop;
      execute replace(${dollar(rlsStatements[0])}, '${PLACEHOLDER}', 'storage_data.' || quote_ident(physical));
      execute replace(${dollar(rlsStatements[1])}, '${PLACEHOLDER}', 'storage_data.' || quote_ident(physical));
      execute replace(${dollar(rlsStatements[2])}, '${PLACEHOLDER}', 'storage_data.' || quote_ident(physical));
      return physical;
    end
    $fn$`);

    await q.query(`create function storage.drop_data_table(p_id uuid) returns void
      language plpgsql security definer
      set search_path = pg_catalog, pg_temp
    as $fn$
    begin
      perform 1 from storage.data_tables d where d.id = p_id;
      if not found then
        raise exception 'no data table % in this tenant', p_id using errcode = 'no_data_found';
      end if;
      execute format('drop table if exists storage_data.%I', 't_' || replace(p_id::text, '-', ''));
    end
    $fn$`);
    // Fresh statistics right after a bulk load: the application role cannot ANALYZE (owner only),
    // and autovacuum may take a minute, during which the planner guesses and can be 20x slower.
    await q.query(`create function storage.analyze_data_table(p_id uuid, p_changed bigint) returns boolean
      language plpgsql security definer
      set search_path = pg_catalog, pg_temp
    as $fn$
    declare
      physical text := 't_' || replace(p_id::text, '-', '');
      tuples real;
    begin
      perform 1 from storage.data_tables d where d.id = p_id;
      if not found then
        raise exception 'no data table % in this tenant', p_id using errcode = 'no_data_found';
      end if;
      select c.reltuples into tuples from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = 'storage_data' and c.relname = physical;
      if tuples is null or (tuples >= 0 and p_changed < tuples * 0.1) then
        return false;
      end if;
      execute format('analyze storage_data.%I', physical);
      return true;
    end
    $fn$`);
  }

  async down(q: QueryRunner): Promise<void> {
    const tables = (await q.query(`select tablename from pg_tables where schemaname = 'storage_data'`)) as { tablename: string }[];
    for (const { tablename } of tables) await q.query(`drop table storage_data."${tablename.replace(/"/g, '""')}"`);
    await q.query(`drop function storage.analyze_data_table(uuid, bigint)`);
    await q.query(`drop function storage.drop_data_table(uuid)`);
    await q.query(`drop function storage.create_data_table(uuid)`);
    await q.query(`drop table storage.data_tables`);
  }
}
