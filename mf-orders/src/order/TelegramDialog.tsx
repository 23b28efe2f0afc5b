import { Button, Callout, Dialog, DialogBody, DialogFooter, TextArea, Tooltip } from '@blueprintjs/core';
import { TELEGRAM_MESSAGE_MAX, TELEGRAM_MESSAGE_MIN, TELEGRAM_MESSAGES } from '@caravan/contracts';
import { toast } from '@caravan/ui-kit';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useTgRecipientQuery, useTgSendMutation } from './api';

type Props = {
  orderId: number;
  onClose(): void;
  /** Why the dialog opened by itself (the CDEK lock's warning), shown above the message. */
  note?: string;
};

/**
 * The order's telegram message dialog (spec §2, §5, §7 client_order_tg_send; ADR 0022): a client writes
 * to the order's operator, staff to its client. At least 5 characters; with nobody of that side linked
 * to Telegram, sending is off with the spec's tooltip. A refusal keeps the dialog and the text.
 */
export function TelegramDialog({ orderId, onClose, note }: Props) {
  const { t } = useTranslation();
  const [msg, setMsg] = useState('');
  const { data: recipient, isLoading } = useTgRecipientQuery(orderId, { refetchOnMountOrArgChange: true });
  const [send, { isLoading: sending }] = useTgSendMutation();
  const noRecipient = recipient !== undefined && recipient.linked === 0;
  const short = msg.trim().length < TELEGRAM_MESSAGE_MIN;
  const title = recipient
    ? t(recipient.side === 'operator' ? 'telegram.toOperator' : 'telegram.toClient', {
        title: recipient.title,
      })
    : t('telegram.write');

  const submit = async () => {
    try {
      const reply = await send({ id: orderId, msg }).unwrap();
      void toast(reply.message, 'success');
      onClose();
    } catch (err) {
      void toast((err as { message?: string }).message ?? TELEGRAM_MESSAGES.unavailable(''), 'danger');
    }
  };

  const sendButton = (
    <Button
      intent="primary"
      icon="share"
      text={t('telegram.send')}
      loading={sending}
      disabled={isLoading || noRecipient || short}
      data-testid="telegram-send"
      onClick={() => void submit()}
    />
  );
  return (
    <Dialog isOpen title={title} onClose={onClose} data-testid="telegram-dialog">
      <DialogBody>
        {note && (
          <Callout intent="warning" style={{ marginBottom: 10 }} data-testid="telegram-note">
            {note}
          </Callout>
        )}
        <TextArea
          fill
          autoFocus
          rows={4}
          aria-label={t('telegram.message')}
          placeholder={t('telegram.minLength', { n: TELEGRAM_MESSAGE_MIN })}
          maxLength={TELEGRAM_MESSAGE_MAX}
          value={msg}
          data-testid="telegram-msg"
          onChange={(e) => setMsg(e.target.value)}
        />
        {noRecipient && (
          <p className="caravan-muted" data-testid="telegram-no-recipient">
            {TELEGRAM_MESSAGES.noTelegramId}
          </p>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('common.cancel')} onClick={onClose} />
            {noRecipient ? (
              <Tooltip content={TELEGRAM_MESSAGES.noTelegramId}>{sendButton}</Tooltip>
            ) : (
              sendButton
            )}
          </>
        }
      />
    </Dialog>
  );
}
