import { runMain, startService } from '@caravan/service-kit';
import { paymentsService } from './app';

runMain('svc-payments', () => startService(paymentsService()));
