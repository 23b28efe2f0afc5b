import { city } from '@caravan/contracts';
import { registerEntity, titleOf, type ServiceKit } from '@caravan/service-kit';
import { topicOf } from './reference';

/**
 * Cities: everyone reads; anyone may add one (the add-city dialog of the warehouse and delivery-data
 * forms); only admins change or delete them.
 */
export const registerCity = (kit: ServiceKit) =>
  registerEntity(kit.registry, {
    contract: city,
    read: 'any',
    write: 'any',
    computed: { country_title: titleOf('city', 'country_id', 'country') },
    topic: topicOf('city'),
    may: { change: 'admin' },
  });
