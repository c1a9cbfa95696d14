-- Issue 35: a login attempt is counted before its password is checked. Each attempt reserves a row per subject
-- (its email and its address) under an advisory lock of the subject, so at most MAX_FAILURES attempts are ever
-- checked per subject in the window however many arrive at once; a success deletes the email's rows and its own
-- row of the address. attempt_id names the rows of one attempt.
alter table login_failures add column attempt_id uuid;
