-- Issue 19: recording a webhook delivery's outcome writes a new version of its row, entered in each of its
-- indexes. The retention sweep's own index (0008: updated_at of finished deliveries) was one of them, on every
-- success. The sweep now finds old deliveries through each endpoint's deliveries by creation
-- (webhook_deliveries_company_endpoint_created): a delivery finishes after it is created, so one finished before
-- the cutoff was also created before it, and the updated_at condition is checked on the row.
drop index webhook_deliveries_retention;
