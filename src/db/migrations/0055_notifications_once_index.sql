-- jornada: expand-only
-- A notice sent at most once per key (Notice.once: a record to answer, once a day; a probable missed clock-out,
-- once a shift) is looked up by its recipient, kind and key before it is written, on the check-in's path. The
-- inbox index found the recipient's rows and read every one of a year's notifications to compare the key; this
-- one finds the key at once.
create index notifications_once
  on notifications (company_id, recipient_type, recipient_id, kind, (data ->> 'once'));
