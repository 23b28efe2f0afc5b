import { CITY_DIALOG_REQUIRED, city, COUNTRY, type CurrentUser } from '@caravan/contracts';
import {
  fieldsOf,
  userIsAdmin,
  userIsStaff,
  type ColumnDef,
  type FieldDef,
  type QuickCreate,
} from '@caravan/ui-kit';

export const adminOnly = { canCreate: userIsAdmin, canEdit: userIsAdmin };
export const staffOnly = { canCreate: userIsStaff, canEdit: userIsStaff };
export const adminCreates = {
  canCreate: userIsAdmin,
  canEdit: (user: CurrentUser | null) => userIsStaff(user),
};

export const ID: ColumnDef = { key: 'id', label: 'id' };
/** A column showing a value through a label map of the contracts (types, states). */
export const labelled = (key: string, label: string, labels: Record<string, string>): ColumnDef => ({
  key,
  label,
  render: (row, t) =>
    row[key] ? t(`enums.${key}.${String(row[key])}`, { defaultValue: labels[String(row[key])] }) : '',
});

/** The add-city dialog (spec §2, §5): Russian and English titles and a country; the title is the Russian one. */
export const addCity = (countryId?: number): QuickCreate => ({
  title: 'новый город',
  fields: fieldsOf(
    { ...city, required: CITY_DIALOG_REQUIRED },
    { title_ru: {}, title_en: {}, country_id: {} },
  ),
  toValues: (v) => ({ country_id: countryId, ...v, title: v.title_ru }),
});

/** A city select limited to one country, with the add-city dialog. */
export const citySelect = (
  name: string,
  label: string,
  countryId: (v: Record<string, unknown>) => number | null,
): FieldDef => ({
  name,
  label,
  kind: 'ref',
  entity: 'city',
  where: (v) => {
    const country = countryId(v);
    return country ? [{ field: 'country_id', op: '=', value: country }] : [];
  },
  create: addCity(),
});

export const CHINA = COUNTRY.CHINA;
