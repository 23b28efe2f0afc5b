import {
  country,
  currency,
  ENTITY_TOPICS,
  logisticProductType,
  packageDescription,
  type EntityContract,
} from '@caravan/contracts';
import { registerEntity, type EntityDefinition, type ServiceKit } from '@caravan/service-kit';

/** The topic an entity publishes its changes on; an entity without one is a programming error. */
export function topicOf(entity: string) {
  const topic = ENTITY_TOPICS[entity as keyof typeof ENTITY_TOPICS];
  if (!topic) throw new Error(`no topic for ${entity} in contracts`);
  return topic;
}

/** Reference data everyone reads and admins write; its changes replicate to the services that need it. */
export const registerReference = (
  kit: ServiceKit,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  contract: EntityContract<any>,
  extra: Partial<EntityDefinition> = {},
) =>
  registerEntity(kit.registry, {
    contract,
    read: 'any',
    write: 'admin',
    topic: topicOf(contract.name),
    ...extra,
  });

/** Countries, currencies, product types and packages. */
export function registerReferences(kit: ServiceKit) {
  registerReference(kit, country);
  registerReference(kit, currency);
  registerReference(kit, logisticProductType);
  registerReference(kit, packageDescription, { json: ['images'] });
}
