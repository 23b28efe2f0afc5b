import { runMain } from '@caravan/service-kit';
import { startGateway } from './app';

runMain('gateway', () => startGateway());
