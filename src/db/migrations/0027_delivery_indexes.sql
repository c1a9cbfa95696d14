-- Issue 19: every claim and every outcome of a webhook delivery writes a new version of its row (both change
-- indexed columns), and each new version is entered in every index of the table. Two of its seven indexes
-- were redundant:
-- - webhook_deliveries_due (next_attempt_at, for every tenant): the claim takes turns across tenants through
--   webhook_deliveries_company_due (0008) and no statement reads the global one any more;
-- - webhook_deliveries_company_event (company_id, event_id), kept for the event sweep and its cascade: the
--   uniqueness of an event's delivery to an endpoint now leads with the event, so that one index serves both.
alter table webhook_deliveries
  add constraint webhook_deliveries_company_event_endpoint_key unique (company_id, event_id, endpoint_id);
alter table webhook_deliveries drop constraint webhook_deliveries_company_id_endpoint_id_event_id_key;
drop index webhook_deliveries_company_event;
drop index webhook_deliveries_due;
