/** The DaData suggestions API as it answers (https://dadata.ru/api/suggest/): only the fields we read. */
export type DadataAddress = {
  value: string;
  unrestricted_value?: string;
  data: {
    postal_code: string | null;
    region_with_type: string | null;
    area_with_type: string | null;
    city: string | null;
    settlement_with_type: string | null;
    street_with_type: string | null;
    house: string | null;
    geo_lat: string | null;
    geo_lon: string | null;
  };
};

export type DadataParty = {
  value: string;
  data: {
    inn: string;
    kpp: string | null;
    hid: string;
    opf: { full: string | null; short?: string | null } | null;
    state: { status: string };
    address: { value: string } | null;
    management?: { name: string | null; post?: string | null } | null;
    name?: { full_with_opf: string | null; short_with_opf: string | null } | null;
  };
};

export type DadataBank = {
  value: string;
  data: {
    bic: string;
    correspondent_account: string | null;
    name: { payment: string; short: string | null };
    address: { value: string } | null;
  };
};

export type DadataReply<T> = { suggestions: T[] };
