import type { AddressSuggestion, BankSuggestion, CompanySuggestion } from '@caravan/contracts';
import type { DadataAddress, DadataBank, DadataParty } from './types';

/** DaData's address into the spec's address (§3): full, geo_lat, geo_lon, source{…}. */
export const toAddress = (a: DadataAddress): AddressSuggestion => ({
  full: a.unrestricted_value ?? a.value,
  geo_lat: a.data.geo_lat,
  geo_lon: a.data.geo_lon,
  source: {
    city: a.data.city,
    region: a.data.region_with_type,
    area: a.data.area_with_type,
    street: a.data.street_with_type,
    postal_code: a.data.postal_code,
    house: a.data.house,
    place: a.data.settlement_with_type,
  },
});

export const toCompany = (p: DadataParty): CompanySuggestion => ({
  value: p.value,
  data: {
    inn: p.data.inn,
    kpp: p.data.kpp,
    hid: p.data.hid,
    opf: { full: p.data.opf?.full ?? null },
    state: { status: p.data.state.status },
    address: { value: p.data.address?.value ?? '' },
    management: p.data.management ? { name: p.data.management.name } : null,
    name: {
      full_with_opf: p.data.name?.full_with_opf ?? null,
      short_with_opf: p.data.name?.short_with_opf ?? null,
    },
  },
});

export const toBank = (b: DadataBank): BankSuggestion => ({
  value: b.value,
  data: {
    bic: b.data.bic,
    correspondent_account: b.data.correspondent_account,
    name: { payment: b.data.name.payment, short: b.data.name.short },
    address: b.data.address ? { value: b.data.address.value } : null,
  },
});
