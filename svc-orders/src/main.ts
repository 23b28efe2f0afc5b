import { runMain } from '@caravan/service-kit';
import { ordersService } from './app';

runMain(ordersService());
