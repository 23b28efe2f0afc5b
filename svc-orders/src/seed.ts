import type { ServiceKit } from '@caravan/service-kit';

/** Demo clients (ids 1–3 are linked to the demo client users by the gateway seed) and their providers. */
export async function seed({ db, log }: ServiceKit) {
  const [{ n }] = (await db('client').count({ n: '*' })) as [{ n: string }];
  if (Number(n) === 0)
    await db('client').insert([
      { title: 'ООО «Ромашка»', type: 'company' },
      { title: 'ИП Соколов', type: 'self' },
      { title: 'Анна Петрова', type: 'self' },
    ]);
  const [{ providers }] = (await db('provider').count({ providers: '*' })) as [{ providers: string }];
  if (Number(providers) > 0) return;
  await db.transaction(async (trx) => {
    await trx('client')
      .where({ id: 1 })
      .update({
        legal_entity_id: '{2}',
        delivery_data_list: JSON.stringify([
          {
            title: 'Офис на Тверской',
            transport_company: 'cdek',
            type: 'pvz',
            city: 'Москва',
            address: 'г Москва, ул Тверская, д 7',
            delivery_point_code: 'MSK123',
            contact_name: 'Ирина Смирнова',
            contact_phone: '+79161112233',
          },
        ]),
      });
    await trx('client')
      .where({ id: 2 })
      .update({
        legal_entity_id: '{3}',
        delivery_data_list: JSON.stringify([
          {
            title: 'Склад в Подольске',
            transport_company: 'pec',
            type: 'address',
            city: 'Подольск',
            address: 'Московская обл, г Подольск, ул Комсомольская, д 1',
            delivery_point_code: '',
            contact_name: 'Пётр Соколов',
            contact_phone: '+79264445566',
          },
        ]),
      });
    await trx('client')
      .where({ id: 3 })
      .update({
        delivery_data_list: JSON.stringify([
          {
            title: 'Дом',
            transport_company: 'ozon',
            type: 'pvz',
            city: 'Новосибирск',
            address: '',
            delivery_point_code: 'NSK-0456',
            contact_name: 'Анна Петрова',
            contact_phone: '+79137778899',
          },
        ]),
      });
    await trx('provider').insert([
      {
        title: 'Синьхуэй, одежда',
        name_str: 'Guangzhou Xinhui Garments',
        client_id: 1,
        shop_link: 'https://xinhui.1688.com',
        warehouse_point_id: '{5}',
        comment: 'отгрузка 3–5 дней',
      },
      {
        title: 'Yiwu Toys',
        name_str: 'Yiwu Happy Toys Co.',
        client_id: 1,
        shop_link: 'https://happytoys.en.alibaba.com',
        warehouse_point_id: '{}',
      },
      {
        title: 'Шэньчжэнь, электроника',
        name_str: 'Shenzhen Bright Electronics',
        client_id: 2,
        shop_link: 'https://bright-sz.1688.com',
        warehouse_point_id: '{}',
      },
    ]);
  });
  log.info('demo clients and providers seeded');
}
