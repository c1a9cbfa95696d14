-- What a delivery's last attempt sent and got back (issue 18), for the delivery detail: the request headers
-- (the body is the event's envelope, the same bytes on every attempt, rebuilt from the event) and the first 4 KB
-- of the response body. Null until an attempt sent something.
alter table webhook_deliveries add column last_request_headers jsonb;
alter table webhook_deliveries add column last_response_body text;
