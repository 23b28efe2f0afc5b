import { runMain } from '@caravan/service-kit';
import { paymentsService } from './app';

runMain(paymentsService());
