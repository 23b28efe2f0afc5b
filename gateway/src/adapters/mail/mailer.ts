import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from '@caravan/service-kit';

export type Mail = { to: string; subject: string; text: string; html?: string };
export type Mailer = { send(mail: Mail): Promise<void>; close(): void };

/**
 * Mail over SMTP (nodemailer). In development and tests SMTP_URL points at the local mail catcher
 * (deploy/local/mail-catcher.mjs), a real SMTP server that keeps what it receives.
 */
export function createMailer(smtpUrl: string, from: string, log: Logger): Mailer {
  const transport: Transporter = nodemailer.createTransport(smtpUrl);
  return {
    async send(mail) {
      await transport.sendMail({ from, ...mail });
      log.info({ to: mail.to, subject: mail.subject }, 'mail sent');
    },
    close: () => transport.close(),
  };
}
