-- Fresh statistics right after a bulk load: the application role cannot ANALYZE (owner only), and
-- autovacuum may take a minute, during which the planner guesses and can be 20x slower.
create or replace function storage.analyze_data_table(p_id uuid, p_changed bigint)
  returns boolean
  language plpgsql
  security definer
  set search_path to 'pg_catalog', 'pg_temp'
as $$
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
$$;
