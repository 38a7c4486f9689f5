-- An execution's step records as JSON, under the caller's RLS context (security invoker), for the
-- tenant functions above that entered it.
create or replace function run.step_records_json(p_id uuid)
  returns jsonb
  language plpgsql
  stable
as $$
  begin
    return (select coalesce(jsonb_agg(to_jsonb(s) order by s.id), '[]'::jsonb)
              from (select id, path, step_id, type, status, attempt, input, output, error, wake_at, started_at, finished_at
                      from run.execution_steps where execution_id = p_id) s);
  end
$$;
