import type { Country } from '@caravan/contracts';
import { baseApi, entityEndpoints, type EntityRow } from '@caravan/ui-kit';

export type CountryRow = Country & EntityRow;

export const countryApi = baseApi.injectEndpoints({
  endpoints: (build) => {
    const country = entityEndpoints<CountryRow>(build, 'country');
    return { countryList: country.list, countryUpdate: country.update };
  },
});
export const { useCountryListQuery, useCountryUpdateMutation } = countryApi;
