import { extraService, extraServiceErrors } from '@caravan/contracts';
import { BusinessError, registerEntity, titleOf, type ServiceKit } from '@caravan/service-kit';
import { topicOf } from './reference';

/** Extra services (transfer to the door, packaging): everyone reads them, an operator manages their own. */
export const registerExtraService = (kit: ServiceKit) =>
  registerEntity(kit.registry, {
    contract: extraService,
    read: 'any',
    write: 'staff',
    readScope: 'all',
    computed: {
      operator_title: titleOf('extra_service', 'operator_id', 'operator'),
      warehouse_point_title: titleOf('extra_service', 'warehouse_point_id', 'warehouse_point'),
      package_description_title: titleOf('extra_service', 'package_description_id', 'package_description'),
    },
    rules: ({ next }) => {
      const errors = extraServiceErrors(next as never);
      if (errors.length) throw new BusinessError(errors.join('; '));
    },
    topic: topicOf('extra_service'),
  });
