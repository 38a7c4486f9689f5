-- Drops the physical table of a user data table (SECURITY DEFINER, like create_data_table).
create or replace function storage.drop_data_table(p_id uuid)
  returns void
  language plpgsql
  security definer
  set search_path to 'pg_catalog', 'pg_temp'
as $$
  begin
    perform 1 from storage.data_tables d where d.id = p_id;
    if not found then
      raise exception 'no data table % in this tenant', p_id using errcode = 'no_data_found';
    end if;
    execute format('drop table if exists storage_data.%I', 't_' || replace(p_id::text, '-', ''));
  end
$$;
