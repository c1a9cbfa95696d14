import { createRequire } from 'node:module';
import type nodemailer from 'nodemailer';

const require = createRequire(import.meta.url);

/** A message to one person: plain text, and optionally an HTML part, its Message-ID and extra headers. */
export type Mail = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  messageId?: string;
  headers?: Record<string, string>;
  /** Files attached (a closed month's document, issue 39). */
  attachments?: Array<{ filename: string; content: Buffer; contentType: string }>;
};

/** Sends mail; the service has one when JORNADA_SMTP_URL is set. */
export type Mailer = { send(mail: Mail): Promise<void> };

/**
 * A mailer over SMTP (nodemailer; docs/decisions/0009-registry-of-record.md): the URL carries the server, the
 * port, the credentials and TLS (`smtp://`, `smtps://`, `?secure=true`), as nodemailer reads it. nodemailer (about
 * 25 MB) is loaded only by a process that has a mailer (issue 19).
 */
export function smtpMailer(url: string, from: string): Mailer {
  const transport = (require('nodemailer') as typeof nodemailer).createTransport(url);
  return {
    async send(mail) {
      await transport.sendMail({ from, ...mail });
    },
  };
}
