import type { Migration } from '@caravan/service-kit';
import { sealStoredTokens } from '../src/domain/credentials';

/** Carrier API tokens at rest are encrypted (AES-256-GCM under CARRIERS_SECRET_KEY): the plain ones stored so far get sealed. */
export const carrierCredentials: Migration = {
  name: '011_carrier_credentials',
  async up(db, schema) {
    await sealStoredTokens(db, `${schema}.operator`);
  },
};
