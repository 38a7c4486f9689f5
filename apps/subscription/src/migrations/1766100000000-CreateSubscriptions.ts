import type { MigrationInterface, QueryRunner } from 'typeorm';
import { applyTenantRls } from '@platform/db';
import { SEED_PLANS } from '../plans/seed-plans.js';

/**
 * Plans (platform data, not a tenant's), each tenant's subscription and its plan changes, metered
 * usage and invoices.
 *
 * Usage is aggregated idempotently: `usage_events` holds every fact's id (a replay meets its row and
 * adds nothing), `usage_daily` the sums per period, day, environment, customer, metric and billing
 * mode, and `quota_totals` the tenant's billable total per period and metric, all written in one
 * transaction. Invoices are unique per tenant and period and refuse every change once written.
 */
export class CreateSubscriptions1766100000000 implements MigrationInterface {
  name = 'CreateSubscriptions1766100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`create table subscription.plans (
      code text primary key check (code ~ '^[a-z0-9][a-z0-9_-]{0,39}$'),
      name text not null,
      currency text not null check (currency ~ '^[A-Z]{3}$'),
      base_price_minor bigint not null check (base_price_minor >= 0),
      rate_limits jsonb not null,
      quotas jsonb not null,
      created_at timestamptz not null default now())`);
    for (const plan of SEED_PLANS) {
      await q.query(
        `insert into subscription.plans (code, name, currency, base_price_minor, rate_limits, quotas) values ($1, $2, $3, $4, $5, $6) on conflict do nothing`,
        [plan.code, plan.name, plan.currency, plan.base_price_minor, JSON.stringify(plan.rate_limits), JSON.stringify(plan.quotas)],
      );
    }

    await q.query(`create table subscription.subscriptions (
      tenant_id uuid not null,
      id uuid not null,
      plan_code text not null references subscription.plans (code),
      status text not null check (status in ('active', 'cancelled')),
      period_start timestamptz not null,
      period_end timestamptz not null check (period_end > period_start),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (tenant_id, id))`);
    await q.query(`create unique index subscriptions_one_per_tenant on subscription.subscriptions (tenant_id)`);
    // The billing pass's scan (system path): periods that have ended.
    await q.query(`create index subscriptions_due on subscription.subscriptions (period_end)`);
    await applyTenantRls(q, 'subscription.subscriptions', { environment: false });

    await q.query(`create table subscription.plan_changes (
      tenant_id uuid not null,
      id uuid not null,
      from_plan text,
      to_plan text not null,
      actor text,
      changed_at timestamptz not null default now(),
      primary key (tenant_id, id))`);
    await applyTenantRls(q, 'subscription.plan_changes', { environment: false });

    await q.query(`create table subscription.usage_events (
      tenant_id uuid not null,
      event_id uuid not null,
      environment_id uuid not null,
      scope_id uuid,
      metric text not null,
      quantity bigint not null,
      billable boolean not null,
      occurred_at timestamptz not null,
      recorded_at timestamptz not null default now(),
      primary key (tenant_id, event_id))`);
    await applyTenantRls(q, 'subscription.usage_events', { environment: false, scope: 'owned' });

    await q.query(`create table subscription.usage_daily (
      tenant_id uuid not null,
      period_start timestamptz not null,
      day date not null,
      environment_id uuid not null,
      scope_id uuid,
      metric text not null,
      billable boolean not null,
      quantity bigint not null,
      constraint usage_daily_key unique nulls not distinct (tenant_id, period_start, metric, day, environment_id, scope_id, billable))`);
    await applyTenantRls(q, 'subscription.usage_daily', { environment: false, scope: 'owned' });

    await q.query(`create table subscription.quota_totals (
      tenant_id uuid not null,
      period_start timestamptz not null,
      metric text not null,
      quantity bigint not null,
      primary key (tenant_id, period_start, metric))`);
    await applyTenantRls(q, 'subscription.quota_totals', { environment: false });

    await q.query(`create table subscription.invoices (
      tenant_id uuid not null,
      id uuid not null,
      period_start timestamptz not null,
      period_end timestamptz not null,
      plan_code text not null,
      currency text not null,
      lines jsonb not null,
      subtotal_minor bigint not null,
      total_minor bigint not null,
      status text not null check (status in ('issued')),
      issued_at timestamptz not null default now(),
      primary key (tenant_id, id))`);
    // One invoice per tenant and period, whichever replica's billing pass gets there first.
    await q.query(`create unique index invoices_one_per_period on subscription.invoices (tenant_id, period_start)`);
    await q.query(`create index invoices_list on subscription.invoices (tenant_id, id desc)`);
    await applyTenantRls(q, 'subscription.invoices', { environment: false });
    await q.query(`create function subscription.invoices_immutable() returns trigger language plpgsql as $$
      begin raise exception 'an issued invoice never changes' using errcode = 'check_violation'; end $$`);
    await q.query(
      `create trigger invoices_immutable before update or delete on subscription.invoices for each row execute function subscription.invoices_immutable()`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`drop table subscription.invoices, subscription.quota_totals, subscription.usage_daily, subscription.usage_events,
      subscription.plan_changes, subscription.subscriptions, subscription.plans`);
    await q.query(`drop function subscription.invoices_immutable()`);
  }
}
