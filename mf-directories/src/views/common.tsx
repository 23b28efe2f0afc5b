import { CITY_DIALOG_REQUIRED, city, COUNTRY, type CurrentUser } from '@caravan/contracts';
import {
  fieldsOf,
  ID_COLUMN,
  labelledColumn,
  userIsAdmin,
  userIsStaff,
  type FieldDef,
  type QuickCreate,
} from '@caravan/ui-kit';

export const adminOnly = { canCreate: userIsAdmin, canEdit: userIsAdmin };
export const staffOnly = { canCreate: userIsStaff, canEdit: userIsStaff };
export const adminCreates = {
  canCreate: userIsAdmin,
  canEdit: (user: CurrentUser | null) => userIsStaff(user),
};

export const ID = ID_COLUMN;
/** A column showing a value through a label map of the contracts (types, states). */
export const labelled = labelledColumn;

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
