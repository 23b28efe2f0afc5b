import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from '../logger';

export type Mail = { to: string; subject: string; text: string; html?: string };
export type Mailer = { send(mail: Mail): Promise<void>; close(): void };

/**
 * Mail over SMTP (nodemailer), the one mailer of the gateway (account mail) and svc-orders (notifications).
 * In development and tests SMTP_URL points at the local mail catcher (deploy/local/mail-catcher.js), a
 * real SMTP server that keeps what it receives.
 */
export function createMailer(smtpUrl: string, from: string, log: Logger): Mailer {
  // bounded waits: a caller that claimed work for a while (svc-orders' delivery lease) outlives any send
  const transport: Transporter = nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 60_000,
  });
  return {
    async send(mail) {
      await transport.sendMail({ from, ...mail });
      log.info({ to: mail.to, subject: mail.subject }, 'mail sent');
    },
    close: () => transport.close(),
  };
}
