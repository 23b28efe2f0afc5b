export type CaughtMail = {
  id: number;
  to: string[];
  subject: string;
  text: string;
  /** the HTML part, '' without one */
  html: string;
  links: string[];
  date: string;
};
export function startMailCatcher(options?: { host?: string; smtpPort?: number; httpPort?: number }): Promise<{
  messages: CaughtMail[];
  smtpUrl: string;
  httpUrl: string;
  close(): Promise<unknown>;
}>;
