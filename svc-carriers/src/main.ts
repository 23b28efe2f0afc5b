import { runMain } from '@caravan/service-kit';
import { carriersService } from './app';

runMain(carriersService());
