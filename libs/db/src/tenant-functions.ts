/**
 * Database functions that set the tenant context themselves, for hot paths: calling one is a
 * single statement, so it runs in its own implicit transaction in one round trip, where
 * TenantDb.run needs three (BEGIN and the context, the work, COMMIT). The settings are local to
 * that transaction, exactly as TenantDb's are. Such functions are SECURITY INVOKER, so RLS
 * applies to everything they touch; their first four parameters are the context (tenant,
 * environment, scope, asynchronous commit) and their first statement is
 * `perform <schema>.enter_tenant(p_tenant, p_env, p_scope, p_async)`. Call them with TenantDb.call.
 */
export function enterTenantFunctionStatements(schema: string): string[] {
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`Not a plain schema name: ${schema}`);
  return [
    // PL/pgSQL, not SQL: PostgreSQL parses and plans a SQL function's body again on every call.
    `create or replace function ${schema}.enter_tenant(p_tenant uuid, p_env uuid, p_scope uuid, p_async boolean) returns void
       language plpgsql volatile security invoker as $$
       begin
         perform set_config('app.tenant_id', p_tenant::text, true), set_config('app.env_id', p_env::text, true),
                 set_config('app.scope_id', coalesce(p_scope::text, ''), true),
                 set_config('synchronous_commit', case when p_async then 'off' else 'on' end, true);
       end $$`,
  ];
}
