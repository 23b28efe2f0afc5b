import { NOTIFICATION_EMAIL, type NotificationTable } from '@caravan/contracts';

/** A notice as its mail lists it. */
export type MailedNotice = {
  label: string;
  message: string;
  table_name: NotificationTable;
  item_id: number | null;
};

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Where a notice leads in the app: its order's card, or the wallet. */
function noticeLink(notice: MailedNotice, publicUrl: string): { text: string; url: string } | null {
  if (notice.table_name === 'wallet')
    return { text: NOTIFICATION_EMAIL.openWallet, url: `${publicUrl}/wallet` };
  if (notice.item_id === null) return null;
  return { text: NOTIFICATION_EMAIL.openOrder, url: `${publicUrl}/client_order/${notice.item_id}` };
}

/**
 * One mail of a user's notices (docs/adr/0028): the subject is the one notice's heading or how many there
 * are; the plain text and the HTML list each notice's heading, its sentence and the link to its order.
 */
export function notificationMail(fullname: string, notices: readonly MailedNotice[], publicUrl: string) {
  const base = publicUrl.replace(/\/$/, '');
  const items = notices.map((n) => ({ ...n, link: noticeLink(n, base) }));
  const profile = `${base}/profile`;
  const text = [
    NOTIFICATION_EMAIL.greeting(fullname),
    '',
    NOTIFICATION_EMAIL.intro(notices.length),
    '',
    ...items.flatMap((n) => [
      `• ${n.label}: ${n.message}`,
      ...(n.link ? [`  ${n.link.text}: ${n.link.url}`] : []),
      '',
    ]),
    '—',
    `${NOTIFICATION_EMAIL.why} ${profile}`,
  ].join('\n');
  const html = [
    `<p>${escapeHtml(NOTIFICATION_EMAIL.greeting(fullname))}</p>`,
    `<p>${escapeHtml(NOTIFICATION_EMAIL.intro(notices.length))}</p>`,
    '<ul>',
    ...items.map(
      (n) =>
        `<li><strong>${escapeHtml(n.label)}</strong>: ${escapeHtml(n.message)}` +
        (n.link ? `<br><a href="${escapeHtml(n.link.url)}">${escapeHtml(n.link.text)}</a>` : '') +
        '</li>',
    ),
    '</ul>',
    `<p style="color:#777">${escapeHtml(NOTIFICATION_EMAIL.why)} <a href="${escapeHtml(profile)}">${escapeHtml(profile)}</a></p>`,
  ].join('\n');
  return { subject: NOTIFICATION_EMAIL.subject(notices.map((n) => n.label)), text, html };
}
