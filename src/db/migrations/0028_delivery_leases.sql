-- Issue 19: a claim writes a delivery's lease without touching an indexed column, so PostgreSQL can update the
-- row in place (a heap-only tuple: no new index entries) instead of entering a new version in every index.
-- - leased_until: set by a claim, while an attempt is in flight; null otherwise. next_attempt_at keeps the due
--   time the claim found (it is indexed for the claim), and a row is due again when both have passed. Every
--   outcome, release and manual retry sets it back to null. The API shows the later of the two as
--   next_attempt_at, as before: while an attempt is in flight, when its lease ends.
-- - a claim no longer sets updated_at (indexed for the retention sweep, which reads only finished rows);
--   last_attempt_at records when the attempt started.
-- - fillfactor 50: an in-place update needs room on the row's page; rows are inserted half a page apart, and
--   the page's dead versions are pruned by later reads. The table takes about twice the pages for it.
alter table webhook_deliveries add column leased_until timestamptz(3);
alter table webhook_deliveries set (fillfactor = 50);
