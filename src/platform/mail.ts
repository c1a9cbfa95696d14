import nodemailer from 'nodemailer';

/** A message to one person, in plain text. */
export type Mail = { to: string; subject: string; text: string };

/** Sends mail; the service has one when JORNADA_SMTP_URL is set. */
export type Mailer = { send(mail: Mail): Promise<void> };

/**
 * A mailer over SMTP (nodemailer; docs/decisions/0009-registry-of-record.md): the URL carries the server, the
 * port, the credentials and TLS (`smtp://`, `smtps://`, `?secure=true`), as nodemailer reads it.
 */
export function smtpMailer(url: string, from: string): Mailer {
  const transport = nodemailer.createTransport(url);
  return {
    async send(mail) {
      await transport.sendMail({ from, ...mail });
    },
  };
}
