import { Callout, Checkbox, H4 } from '@blueprintjs/core';
import { MESSAGES, NOTIFICATION_CHANNEL_LABELS } from '@caravan/contracts';
import { toast, useNotificationChannelsQuery, useUpdateNotificationChannelsMutation } from '@caravan/ui-kit';
import { useTranslation } from 'react-i18next';
import { useTelegramLinkGetQuery } from '../api/users';

/**
 * On /profile: where the user's notifications go besides the app (always): email, Telegram. Each tick
 * is saved at once (docs/adr/0021).
 */
export function NotificationChannels() {
  const { t } = useTranslation();
  const { data } = useNotificationChannelsQuery();
  const [update, { isLoading }] = useUpdateNotificationChannelsMutation();
  const link = useTelegramLinkGetQuery(undefined);
  // chosen but not linked (or the link broke): nothing reaches Telegram until the user links it above
  const telegramWaits = Boolean(data?.telegram) && Boolean(link.data) && link.data?.state !== 'linked';
  const set = async (channel: 'email' | 'telegram', value: boolean) => {
    try {
      const saved = await update({ [channel]: value }).unwrap();
      void toast(saved.message, 'success');
    } catch (err) {
      void toast((err as { message?: string }).message ?? MESSAGES.somethingWentWrong, 'danger');
    }
  };
  return (
    <section style={{ marginTop: 20 }} data-testid="notification-channels">
      <H4>{t('notifications.channels')}</H4>
      <Checkbox
        checked
        disabled
        label={NOTIFICATION_CHANNEL_LABELS.app}
        title={t('notifications.channelsHint')}
      />
      {(['email', 'telegram'] as const).map((channel) => (
        <Checkbox
          key={channel}
          label={NOTIFICATION_CHANNEL_LABELS[channel]}
          checked={data?.[channel] ?? false}
          disabled={!data || isLoading}
          onChange={(e) => void set(channel, e.currentTarget.checked)}
        />
      ))}
      {telegramWaits && (
        <Callout intent="warning" icon="warning-sign" data-testid="telegram-channel-waits">
          {t('notifications.telegramNotLinked')}
        </Callout>
      )}
      <p className="bp6-text-muted bp6-text-small">{t('notifications.channelsHint')}</p>
    </section>
  );
}
