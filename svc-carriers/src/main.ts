import { runMain, startService } from '@caravan/service-kit';
import { carriersService } from './app';

runMain('svc-carriers', () => startService(carriersService()));
