import { runMain, startService } from '@caravan/service-kit';
import { ordersService } from './app';

runMain('svc-orders', () => startService(ordersService()));
