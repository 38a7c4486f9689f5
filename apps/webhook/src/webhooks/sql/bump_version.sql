-- Trigger function: a webhook's version grows on every update, so a delivery recorded against the
-- version its receiver read is refused once the webhook changed (the trigger is in the migrations).
create or replace function webhook.bump_version()
  returns trigger
  language plpgsql
as $$
  begin
    new.version := old.version + 1;
    return new;
  end
$$;
