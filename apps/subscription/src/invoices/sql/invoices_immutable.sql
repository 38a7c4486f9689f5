-- Trigger function: an issued invoice never changes (the trigger is in the migrations).
create or replace function subscription.invoices_immutable()
  returns trigger
  language plpgsql
as $$
  begin raise exception 'an issued invoice never changes' using errcode = 'check_violation';
  end
$$;
