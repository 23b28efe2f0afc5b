import { city, country, currency, logisticProductType, packageDescription } from '@caravan/contracts';
import { fieldsOf, type EntityView } from '@caravan/ui-kit';
import { adminOnly, ID } from './common';

export const countryView: EntityView = {
  entity: 'country',
  title: 'pages.country',
  ...adminOnly,
  columns: [
    ID,
    { key: 'title', label: country.labels.title },
    { key: 'title_en', label: country.labels.title_en },
    { key: 'title_ru', label: country.labels.title_ru },
  ],
  fields: fieldsOf(country, { title: {}, title_en: {}, title_ru: {} }),
};

export const cityView: EntityView = {
  entity: 'city',
  title: 'pages.city',
  ...adminOnly,
  columns: [
    ID,
    { key: 'title', label: city.labels.title! },
    { key: 'title_en', label: city.labels.title_en! },
    { key: 'country_title', label: city.labels.country_title! },
  ],
  fields: fieldsOf(city, { title: {}, title_ru: {}, title_en: {}, country_id: {} }),
};

export const currencyView: EntityView = {
  entity: 'currency',
  title: 'pages.currency',
  ...adminOnly,
  columns: [
    ID,
    { key: 'title', label: currency.labels.title },
    { key: 'symbol', label: currency.labels.symbol },
  ],
  fields: fieldsOf(currency, { title: {}, symbol: {} }),
};

export const productTypeView: EntityView = {
  entity: 'logistic_product_type',
  title: 'pages.logistic_product_type',
  ...adminOnly,
  columns: [ID, { key: 'title', label: logisticProductType.labels.title }],
  fields: fieldsOf(logisticProductType, { title: {} }),
};

export const packageView: EntityView = {
  entity: 'package_description',
  title: 'pages.package_description',
  ...adminOnly,
  columns: [
    ID,
    {
      key: 'images',
      label: packageDescription.labels.images,
      render: (row) => {
        const first = (row.images as { file: string; deleted: boolean }[]).find((i) => !i.deleted);
        return first ? <img src={first.file} alt="" className="caravan-thumb" /> : null;
      },
    },
    { key: 'title', label: packageDescription.labels.title },
    { key: 'title_cn', label: packageDescription.labels.title_cn },
  ],
  sort: ['id', 'title', 'title_cn'],
  fields: fieldsOf(packageDescription, { title: {}, title_cn: {}, images: { kind: 'images' } }),
};
