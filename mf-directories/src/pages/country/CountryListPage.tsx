import { useTranslation } from 'react-i18next';
import { country } from '@caravan/contracts';
import { DocumentList, type FieldDef } from '@caravan/ui-kit';
import { useCountryListQuery, useCountryUpdateMutation, type CountryRow } from '../../api/country';

const fields: FieldDef[] = (['title', 'title_en', 'title_ru'] as const).map((name) => ({
  name,
  label: country.labels[name],
  required: (country.required as readonly string[]).includes(name),
}));

export default function CountryListPage() {
  const { t } = useTranslation();
  return (
    <DocumentList<CountryRow>
      title={t('pages.country')}
      useList={useCountryListQuery}
      create={{ useUpdate: useCountryUpdateMutation, fields }}
      columns={[
        { key: 'id', label: 'id' },
        { key: 'title', label: country.labels.title },
        { key: 'title_en', label: country.labels.title_en },
        { key: 'title_ru', label: country.labels.title_ru },
      ]}
    />
  );
}
