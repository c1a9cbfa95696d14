-- Sync without gaps (docs/architecture.md): a sync listing ends at the horizon, the earliest stamp a transaction
-- still running may write. A writer publishes a lower bound of its stamps before it takes one
-- (src/db/sync-stamp.ts: a shared advisory lock keyed by the bound, and the bound in the transaction-local
-- setting jornada.sync_floor). This guard refuses a stamp below the bound, or with no bound published, so that no
-- code path can stamp a synced record behind a client's back: updated_at on the tables whose listings are
-- synced, created_at on events (the sandbox's event feed, whose ids carry it). A bulk load and a migration set
-- the bound to 'any'.
create function jornada_sync_stamp_guard() returns trigger
language plpgsql as $$
declare
  bound text := current_setting('jornada.sync_floor', true);
  stamp timestamptz;
begin
  if bound = 'any' then
    return new;
  end if;
  if tg_table_name = 'events' then
    stamp := new.created_at;
  elsif tg_op = 'UPDATE' and new.updated_at is not distinct from old.updated_at then
    return new;
  else
    stamp := new.updated_at;
  end if;
  if bound is null or bound = '' or stamp < to_timestamp(bound::bigint / 1000.0) then
    raise exception 'the stamp of % written without a sync stamp (src/db/sync-stamp.ts)', tg_table_name
      using errcode = 'P0001', detail = format('stamp %s, bound %s', stamp, coalesce(bound, 'none'));
  end if;
  return new;
end
$$;

create trigger sync_stamp_guard before insert on events
  for each row execute function jornada_sync_stamp_guard();

-- The tables whose listings are synced by updated_at (syncPage).
do $$
declare
  synced text;
begin
  foreach synced in array array['employees', 'check_ins', 'check_in_corrections', 'absences', 'absence_types',
                                'locations', 'units', 'api_keys', 'webhook_endpoints'] loop
    execute format('create trigger sync_stamp_guard before insert or update of updated_at on %I '
                   'for each row execute function jornada_sync_stamp_guard()', synced);
  end loop;
end
$$;
