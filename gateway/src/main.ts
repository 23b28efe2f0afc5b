import { startGateway } from './app';

startGateway().then(
  (gateway) => {
    const shutdown = () =>
      gateway.stop().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    process.once('SIGINT', shutdown);
    process.once('SIGTERM', shutdown);
  },
  (err) => {
    console.error('gateway failed to start:', err);
    process.exit(1);
  },
);
