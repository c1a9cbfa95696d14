import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server on a local port that keeps every message it receives (raw, as sent): the sink the tests give
 * the service as JORNADA_SMTP_URL.
 */
export async function startSmtpSink(): Promise<{
  smtp: { url: string; from: string };
  received: string[];
  close(): Promise<void>;
}> {
  const received: string[] = [];
  const sink = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, _session, callback) {
      let message = '';
      stream.on('data', (chunk: Buffer) => {
        message += chunk.toString('utf8');
      });
      stream.on('end', () => {
        received.push(message);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
  const port = (sink.server.address() as AddressInfo).port;
  return {
    smtp: { url: `smtp://127.0.0.1:${port}?ignoreTLS=true`, from: 'Jornada <registro@example.com>' },
    received,
    close: () => new Promise<void>((resolve) => sink.close(() => resolve())),
  };
}
