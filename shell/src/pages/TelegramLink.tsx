import { AnchorButton, Button, Callout, H5, Tag } from '@blueprintjs/core';
import { formatDate, MESSAGES, type TelegramCode, type TelegramLink as Link } from '@caravan/contracts';
import { toast } from '@caravan/ui-kit';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  useTelegramCodeCreateMutation,
  useTelegramLinkGetQuery,
  useTelegramUnlinkMutation,
} from '../api/users';

/** While a code waits for the bot, the link is asked about this often. */
const POLL_MS = 2000;

const nameOf = (link: Link) =>
  [link.first_name, link.username ? `@${link.username}` : null].filter(Boolean).join(' ') ||
  `id ${link.telegram_id ?? ''}`;

/** A link in words: linked (to whom), broken (why), or none. */
function LinkState({ link }: { link: Link | undefined }) {
  const { t } = useTranslation();
  if (!link) return null;
  if (!link.state)
    return (
      <span className="bp6-text-muted" data-testid="telegram-state">
        {t('telegram.notLinked')}
      </span>
    );
  if (link.state === 'broken')
    return (
      <Tag intent="danger" minimal data-testid="telegram-state">
        {t('telegram.broken', { reason: link.broken_reason ?? '' })}
      </Tag>
    );
  return (
    <Tag intent="success" minimal icon="tick" data-testid="telegram-state">
      {t('telegram.linked', { name: nameOf(link) })}
    </Tag>
  );
}

/** /users/{id}: the user's Telegram link as the admin sees it (read only: only the user links it). */
export function TelegramState({ userId }: { userId: number }) {
  const { data } = useTelegramLinkGetQuery(userId);
  return <LinkState link={data} />;
}

/**
 * /profile: the user's Telegram (ADR 0022). A one-time code is sent to the bot (the link opens the bot
 * with it); the page asks every 2 s until the bot has linked the chat. Unlink; a broken link says why.
 */
export function TelegramLink() {
  const { t } = useTranslation();
  // the code shown, and the link as it was when the code was asked for: a new linked_at is the bot's work
  const [pending, setPending] = useState<{ code: TelegramCode; before: string | null } | null>(null);
  const code = pending?.code ?? null;
  const { data: link } = useTelegramLinkGetQuery(undefined, { pollingInterval: code ? POLL_MS : 0 });
  const [createCode, { isLoading: creating }] = useTelegramCodeCreateMutation();
  const [unlink, { isLoading: unlinking }] = useTelegramUnlinkMutation();
  const linkedNow = Boolean(pending && link?.state === 'linked' && link.linked_at !== pending.before);

  useEffect(() => {
    if (!linkedNow) return;
    setPending(null);
    void toast(t('telegram.linkedNow'), 'success');
  }, [linkedNow, t]);

  const fail = (err: unknown) =>
    void toast((err as { message?: string }).message ?? MESSAGES.somethingWentWrong, 'danger');
  const ask = async () => {
    try {
      const before = link?.state === 'linked' ? link.linked_at : null;
      setPending({ code: await createCode().unwrap(), before });
    } catch (err) {
      fail(err);
    }
  };
  const drop = async () => {
    try {
      const reply = await unlink().unwrap();
      setPending(null);
      void toast(reply.message, 'success');
    } catch (err) {
      fail(err);
    }
  };

  return (
    <section style={{ marginTop: 20 }} data-testid="telegram-link">
      <H5>{t('telegram.title')}</H5>
      <p>
        <LinkState link={link} />
      </p>
      {code && (
        <Callout intent="primary" icon="link" style={{ marginBottom: 10 }}>
          <p>
            <code
              className="caravan-telegram-code"
              data-testid="telegram-code"
              style={{ fontSize: 22, letterSpacing: 3 }}
            >
              {code.code}
            </code>
          </p>
          <p>
            {t('telegram.codeHint', {
              bot: code.bot_username,
              until: `${formatDate(code.expires_at)} ${new Date(code.expires_at).toLocaleTimeString('ru-RU', { hour: '2-digit', minute: '2-digit' })}`,
            })}
          </p>
          <AnchorButton
            href={code.bot_link}
            target="_blank"
            rel="noreferrer"
            icon="share"
            text={t('telegram.openBot')}
            data-testid="telegram-open-bot"
          />
        </Callout>
      )}
      <Button
        icon="link"
        loading={creating}
        text={code || link?.state ? t('telegram.newCode') : t('telegram.getCode')}
        data-testid="telegram-get-code"
        onClick={() => void ask()}
      />
      {link?.state && (
        <Button
          icon="cross"
          variant="minimal"
          loading={unlinking}
          text={t('telegram.unlink')}
          style={{ marginLeft: 8 }}
          data-testid="telegram-unlink"
          onClick={() => void drop()}
        />
      )}
    </section>
  );
}
