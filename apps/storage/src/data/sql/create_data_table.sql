-- Creates the physical table of a user data table. SECURITY DEFINER, owned by the owner role: it
-- builds the DDL itself from the definition row, so the application role never runs DDL.
create or replace function storage.create_data_table(p_id uuid)
  returns text
  language plpgsql
  security definer
  set search_path to 'pg_catalog', 'pg_temp'
as $$
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
    execute replace($rls$ALTER TABLE storage_data.__physical__ ENABLE ROW LEVEL SECURITY$rls$, 'storage_data.__physical__', 'storage_data.' || quote_ident(physical));
    execute replace($rls$ALTER TABLE storage_data.__physical__ FORCE ROW LEVEL SECURITY$rls$, 'storage_data.__physical__', 'storage_data.' || quote_ident(physical));
    execute replace($rls$CREATE POLICY tenant_isolation ON storage_data.__physical__ USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid AND environment_id = NULLIF(current_setting('app.env_id', true), '')::uuid AND (current_setting('app.scope_id', true) IS NULL OR current_setting('app.scope_id', true) = '' OR scope_id = NULLIF(current_setting('app.scope_id', true), '')::uuid)) WITH CHECK (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid AND environment_id = NULLIF(current_setting('app.env_id', true), '')::uuid AND (current_setting('app.scope_id', true) IS NULL OR current_setting('app.scope_id', true) = '' OR scope_id = NULLIF(current_setting('app.scope_id', true), '')::uuid))$rls$, 'storage_data.__physical__', 'storage_data.' || quote_ident(physical));
    return physical;
  end
$$;
