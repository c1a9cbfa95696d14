-- jornada: expand-only
-- Issue 40: a kiosk punch spends its ticket and deletes its device's expired ones; without this index that delete
-- read every ticket of the company (595 µs a punch in the kiosk bench's rush, the costliest statement).
create index kiosk_tickets_device on kiosk_tickets (company_id, device_id, expires_at);
