-- Issue 35: an invitation is for a worker without a login. For a worker who has one the company can only start a
-- reset: the worker's sessions end at once and the old password stops working; the reset and its acceptance are
-- entries of the worker's chain, and every later document of the worker prints the reset.
alter table portal_invitations add column kind text not null default 'invitation'
  check (kind in ('invitation', 'reset'));
