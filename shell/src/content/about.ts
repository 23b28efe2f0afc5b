/** The visitor's information (spec §1): how to order, payment, delivery, returns, contacts, privacy, offer. */
export type AboutSection = { id: string; title: string; paragraphs: string[] };

/** Seller's legal and contact details, shown with the catalogue and in the contacts section. */
export const SELLER = {
  ru: 'ООО «Караван Логистик», ИНН 7701234567, ОГРН 1227700123456, 125047, г. Москва, ул. 1-я Тверская-Ямская, д. 23, стр. 1. Телефон +7 495 123-45-67, support@caravan.local',
  en: 'Caravan Logistic LLC, TIN 7701234567, PSRN 1227700123456, 23/1 1st Tverskaya-Yamskaya St., Moscow 125047. Phone +7 495 123-45-67, support@caravan.local',
};

export const ABOUT: Record<'ru' | 'en', AboutSection[]> = {
  ru: [
    {
      id: 'order',
      title: 'Как заказать',
      paragraphs: [
        'Зарегистрируйтесь и дождитесь подтверждения администратора. Создайте заказ: добавьте позиции — ссылку на товар в китайском магазине, количество и фото — или укажите трек-номер посылки, если товар вы выкупили сами.',
        'Выберите тариф доставки: калькулятор покажет маршрут, сроки и ориентировочную стоимость. Оператор проверит заказ, выкупит товары и сообщит итоговую стоимость после взвешивания на складе.',
      ],
    },
    {
      id: 'payment',
      title: 'Оплата',
      paragraphs: [
        'Оплатить заказ можно по QR-коду СБП, ссылкой СБП, банковской картой или с баланса кошелька в личном кабинете. Комиссия банка добавляется к сумме: 0,7% для СБП, 2,5% для карты, без комиссии — с кошелька.',
        'Товар оплачивается до выкупа, доставка — после взвешивания на складе консолидации. Доставку по России можно оплатить при получении в пункте выдачи.',
      ],
    },
    {
      id: 'delivery',
      title: 'Доставка',
      paragraphs: [
        'Товары собираются на складе консолидации в Гуанчжоу или Иу, упаковываются и отправляются в Москву авто-, ж/д- или авиатранспортом. Срок зависит от тарифа: от 7 дней самолётом до 35 дней поездом.',
        'По России заказ доставляют СДЭК, Ozon, ПЭК, Деловые Линии, ЖелДорЭкспедиция и другие перевозчики — до двери, до пункта выдачи или на фулфилмент. Статус доставки обновляется в карточке заказа.',
      ],
    },
    {
      id: 'returns',
      title: 'Возврат',
      paragraphs: [
        'Если товар не пришёл на склад или пришёл с браком, оператор откроет спор с продавцом и вернёт деньги за товар на кошелёк. Расходы на международную доставку возвращаются, если повреждение произошло по нашей вине.',
        'Претензию можно направить в течение 7 дней после получения заказа, приложив фото товара и упаковки.',
      ],
    },
    {
      id: 'contacts',
      title: 'Контакты',
      paragraphs: [SELLER.ru, 'Поддержка работает ежедневно с 9:00 до 21:00 по московскому времени.'],
    },
    {
      id: 'privacy',
      title: 'Политика конфиденциальности',
      paragraphs: [
        'Мы обрабатываем персональные данные (имя, email, телефон, адрес доставки) только для исполнения заказов в соответствии с Федеральным законом № 152-ФЗ «О персональных данных». Данные передаются перевозчикам и платёжным партнёрам лишь в объёме, необходимом для доставки и оплаты.',
        'Вы можете запросить изменение или удаление своих данных, написав на support@caravan.local.',
      ],
    },
    {
      id: 'offer',
      title: 'Публичная оферта',
      paragraphs: [
        'Оформляя заказ, вы принимаете условия публичной оферты на оказание услуг по выкупу товаров у иностранных продавцов и их доставке на территорию Российской Федерации. Стоимость услуг определяется тарифом и фактическим весом и объёмом груза.',
        'Исполнитель: ' + SELLER.ru,
      ],
    },
  ],
  en: [
    {
      id: 'order',
      title: 'How to order',
      paragraphs: [
        'Sign up and wait for approval. Create an order with positions (a shop link, quantity and photo) or give the tracking number of a parcel you bought yourself. Pick a delivery tariff; the operator checks the order, buys the goods and tells you the final cost after weighing.',
      ],
    },
    {
      id: 'payment',
      title: 'Payment',
      paragraphs: [
        'Pay by SBP QR code, SBP link, bank card or from your wallet. Bank fees are added: 0.7% for SBP, 2.5% for cards, none from the wallet.',
      ],
    },
    {
      id: 'delivery',
      title: 'Delivery',
      paragraphs: [
        'Goods are consolidated in Guangzhou or Yiwu and shipped to Moscow by truck, train or plane (7 to 35 days), then delivered across Russia by CDEK, Ozon, PEC and other carriers.',
      ],
    },
    {
      id: 'returns',
      title: 'Returns',
      paragraphs: [
        'If goods are lost or damaged, the operator opens a dispute with the seller and refunds the goods to your wallet. Claims are accepted within 7 days of receipt.',
      ],
    },
    {
      id: 'contacts',
      title: 'Contacts',
      paragraphs: [SELLER.en, 'Support works daily 9:00–21:00 Moscow time.'],
    },
    {
      id: 'privacy',
      title: 'Privacy policy',
      paragraphs: [
        'Personal data is processed only to fulfil orders, under Russian Federal Law 152-FZ, and shared with carriers and payment partners only as needed.',
      ],
    },
    {
      id: 'offer',
      title: 'Public offer',
      paragraphs: [
        'Placing an order accepts the public offer for buying goods from foreign sellers and delivering them to Russia. Provider: ' +
          SELLER.en,
      ],
    },
  ],
};
