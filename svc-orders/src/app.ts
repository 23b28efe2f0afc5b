import { createMailer, type EntityStore, type ServiceKit, type ServiceOptions } from '@caravan/service-kit';
import { z } from 'zod';
import { migrations } from '../migrations';
import { createTelegram } from './adapters/telegram';
import {
  deliveryConfig,
  NotificationDeliveryWorker,
  type DeliveryConfig,
} from './domain/notificationDelivery';
import { TelegramDelivery } from './domain/telegram';
import { TelegramBot } from './domain/telegramBot';
import { subscriptions } from './events/subscriptions';
import { registerClient } from './procedures/client';
import { registerClientOrder } from './procedures/clientOrder';
import { registerOrderBulk } from './procedures/clientOrderBulk';
import { registerClientOrderReport } from './procedures/clientOrderReport';
import { registerClientOrderPosition, registerPositionAction } from './procedures/clientOrderPosition';
import { registerOrderTimeline } from './procedures/clientOrderTimeline';
import { registerPhotoReview } from './procedures/photoReview';
import { morePhotosTask } from './domain/morePhotos';
import { registerExcelImport } from './procedures/excelImport';
import { registerNotification } from './procedures/notification';
import { registerPositionBulk } from './procedures/positionsBulk';
import { registerProvider } from './procedures/provider';
import { registerTelegram } from './procedures/telegram';
import { registerUploads } from './procedures/upload';
import { registerChat } from './procedures/chat';
import { registerTask } from './procedures/task';
import { seed } from './seed';

/**
 * Telegram (docs/adr/0022): the bot's client (or the built-in sandbox), its long polling for link codes,
 * the order card's dialog and the links on /profile; `TelegramDelivery.sendTelegram(userId, text)` for
 * whatever else writes to users (notifications).
 */
async function startTelegram(kit: ServiceKit, orders: EntityStore, env: Record<string, string | undefined>) {
  const setup = await createTelegram(env, kit.log);
  const delivery = new TelegramDelivery(kit.db, setup.client, kit.log);
  registerTelegram(kit, orders, setup, delivery);
  const bot = setup.polling ? new TelegramBot(kit.db, setup.client, kit.log) : null;
  // the poller stops first: no getUpdates is left waiting on a sandbox that is already gone
  kit.onStop(async () => {
    await bot?.stop();
    await setup.sandbox?.stop();
  });
  bot?.start();
  return delivery;
}

const MailEnv = z.object({
  SMTP_URL: z.preprocess((v) => (v === '' ? undefined : v), z.string().default('smtp://127.0.0.1:1025')),
  MAIL_FROM: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.string().default('Caravan <no-reply@caravan.local>'),
  ),
});

/**
 * The delivery of notifications beyond the app (docs/adr/0028): the worker sends the queued rows by mail
 * (the one mailer of service-kit, SMTP_URL / MAIL_FROM as the gateway's) and through the bot. It stops
 * before the Telegram sandbox does, so no send is left talking to a server that is gone.
 */
function startDelivery(
  kit: ServiceKit,
  env: Record<string, string | undefined>,
  config: DeliveryConfig,
  telegram: () => TelegramDelivery,
) {
  const mail = MailEnv.parse(env);
  const mailer = createMailer(mail.SMTP_URL, mail.MAIL_FROM, kit.log);
  const worker = new NotificationDeliveryWorker(
    kit.db,
    () => ({ mailer, telegram: (userId, text) => telegram().sendTelegram(userId, text) }),
    config,
    kit.log,
  );
  kit.onStop(async () => {
    await worker.stop();
    mailer.close();
  });
  return worker;
}

export const ordersService = (env?: Record<string, string | undefined>): ServiceOptions => {
  const delivery = deliveryConfig(env ?? process.env);
  // each entity's writes reprice the order, so each needs the other's store; payments' events need it too
  const stores: {
    orders?: EntityStore;
    positions?: EntityStore;
    notifications?: EntityStore;
    telegram?: TelegramDelivery;
  } = {};
  return {
    name: 'orders',
    migrations,
    subscriptions: subscriptions(
      () => stores.orders!,
      () => stores.positions!,
      () => stores.notifications!,
      delivery.emailBatchSeconds,
    ),
    seed,
    env,
    async configure(kit) {
      registerClient(kit);
      registerProvider(kit);
      registerUploads(kit);
      const positions = (stores.positions = registerClientOrderPosition(kit, () => stores.orders!));
      const orders = (stores.orders = registerClientOrder(kit, positions));
      registerPositionAction(kit, positions, orders);
      registerPositionBulk(kit, positions, () => orders);
      registerOrderBulk(kit, positions, () => orders);
      registerExcelImport(kit, () => orders, env);
      registerOrderTimeline(kit, () => orders);
      const tasks = registerTask(kit);
      registerPhotoReview(
        kit,
        () => positions,
        morePhotosTask(() => tasks),
      );
      registerChat(kit);
      const worker = startDelivery(kit, env ?? process.env, delivery, () => stores.telegram!);
      stores.telegram = await startTelegram(kit, orders, env ?? process.env);
      worker.start();
      stores.notifications = registerNotification(kit, env ?? process.env);
      registerClientOrderReport(kit);
    },
  };
};
