import {
  AnchorButton,
  Button,
  Dialog,
  DialogBody,
  DialogFooter,
  HTMLTable,
  InputGroup,
  Menu,
  MenuItem,
  NonIdealState,
  Spinner,
  Tag,
} from '@blueprintjs/core';
import {
  companyStatusLabel,
  mapLink,
  SUGGESTION_COUNT,
  SUGGESTION_DEBOUNCE_MS,
  type AddressSuggestion,
  type BankSuggestion,
  type CompanySuggestion,
} from '@caravan/contracts';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Values } from '../../fields';
import { postApi } from '../../upload';
import { useDebounced } from '../../useDebounced';

/** A search dialog over one of the lookup paths: typed text waits 500 ms, then up to 10 suggestions. */
function SuggestionDialog<S>(props: {
  title: string;
  path: 'suggest_address' | 'suggest_company' | 'suggest_bank';
  initialQuery: string;
  isOpen: boolean;
  onClose(): void;
  item(s: S): { text: ReactNode; label?: ReactNode };
  onPick(s: S): void;
}) {
  const { t } = useTranslation();
  const [query, setQuery] = useState(props.initialQuery);
  const debounced = useDebounced(query.trim(), SUGGESTION_DEBOUNCE_MS);
  const [state, setState] = useState<{ items: S[]; error?: string; busy: boolean }>({
    items: [],
    busy: false,
  });
  useEffect(() => {
    if (props.isOpen) setQuery(props.initialQuery);
  }, [props.isOpen, props.initialQuery]);
  useEffect(() => {
    if (!props.isOpen || !debounced) return setState({ items: [], busy: false });
    let current = true;
    setState((s) => ({ ...s, busy: true }));
    void postApi<S[]>(props.path, { query: debounced, count: SUGGESTION_COUNT }).then((reply) => {
      if (current)
        setState(
          reply.ok ? { items: reply.result, busy: false } : { items: [], error: reply.message, busy: false },
        );
    });
    return () => {
      current = false;
    };
  }, [debounced, props.isOpen, props.path]);
  return (
    <Dialog title={props.title} isOpen={props.isOpen} onClose={props.onClose} style={{ width: 640 }}>
      <DialogBody>
        <InputGroup
          autoFocus
          leftIcon="search"
          value={query}
          onValueChange={setQuery}
          aria-label={t('common.search')}
          rightElement={state.busy ? <Spinner size={16} /> : undefined}
        />
        {state.error ? (
          <NonIdealState icon="error" title={state.error} />
        ) : debounced && !state.busy && !state.items.length ? (
          <NonIdealState icon="search" title={t('common.nothingFound')} />
        ) : (
          <Menu>
            {state.items.map((s, i) => {
              const { text, label } = props.item(s);
              return (
                <MenuItem
                  key={i}
                  text={text}
                  label={label as string}
                  multiline
                  onClick={() => props.onPick(s)}
                />
              );
            })}
          </Menu>
        )}
      </DialogBody>
    </Dialog>
  );
}

/** Address field with a suggestion dialog and a show-on-map link (spec §2). */
export function AddressInput(props: {
  value: string | null | undefined;
  onChange(value: string): void;
  onPick?(s: AddressSuggestion): void;
  disabled?: boolean;
  id?: string;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [geo, setGeo] = useState<Pick<AddressSuggestion, 'geo_lat' | 'geo_lon'>>({
    geo_lat: null,
    geo_lon: null,
  });
  const value = props.value ?? '';
  return (
    <>
      <InputGroup
        id={props.id}
        value={value}
        disabled={props.disabled}
        onValueChange={(v) => {
          setGeo({ geo_lat: null, geo_lon: null });
          props.onChange(v);
        }}
        rightElement={
          <>
            {!props.disabled && (
              <Button
                variant="minimal"
                icon="search"
                aria-label={t('lookup.findAddress')}
                onClick={() => setOpen(true)}
              />
            )}
            {value && (
              <AnchorButton
                variant="minimal"
                icon="map-marker"
                aria-label={t('lookup.showOnMap')}
                title={t('lookup.showOnMap')}
                href={mapLink({ full: value, ...geo })}
                target="_blank"
                rel="noreferrer"
              />
            )}
          </>
        }
      />
      <SuggestionDialog<AddressSuggestion>
        title={t('lookup.findAddress')}
        path="suggest_address"
        initialQuery={value}
        isOpen={open}
        onClose={() => setOpen(false)}
        item={(s) => ({ text: s.full, label: s.source.postal_code ?? undefined })}
        onPick={(s) => {
          setGeo({ geo_lat: s.geo_lat, geo_lon: s.geo_lon });
          props.onChange(s.full);
          props.onPick?.(s);
          setOpen(false);
        }}
      />
    </>
  );
}

const STATUS_INTENT: Record<string, 'success' | 'warning' | 'danger'> = {
  ACTIVE: 'success',
  REORGANIZING: 'warning',
  LIQUIDATING: 'warning',
  LIQUIDATED: 'danger',
};
export const CompanyStatus = ({ status }: { status: string }) => (
  <Tag minimal intent={STATUS_INTENT[status] ?? 'none'}>
    {companyStatusLabel(status)}
  </Tag>
);

/** A company's details as a legal entity's fields. */
export const companyToLegalEntity = (c: CompanySuggestion): Values => ({
  title: c.data.name?.short_with_opf ?? c.value,
  title_full: c.data.name?.full_with_opf ?? '',
  inn: c.data.inn,
  kpp: c.data.kpp ?? '',
  address: c.data.address.value,
  director_name: c.data.management?.name ?? '',
  type: c.data.kpp ? 'company' : 'self',
});

/** A bank's details as a bank account's fields. */
export const bankToAccount = (b: BankSuggestion): Values => ({
  bank_bik: b.data.bic,
  bank_account_number: b.data.correspondent_account ?? '',
  bank_title_full: b.data.name.payment,
  bank_title_short: b.data.name.short ?? '',
});

/** The button beside an INN or BIK field: find the company (by INN or name) or the bank, then fill the form. */
export function LookupButton(props: {
  kind: 'company' | 'bank';
  query: string;
  onFill(patch: Values): void;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [company, setCompany] = useState<CompanySuggestion | null>(null);
  if (props.disabled) return null;
  const button = (
    <Button
      variant="minimal"
      icon="search"
      aria-label={t(props.kind === 'company' ? 'lookup.findCompany' : 'lookup.findBank')}
      onClick={() => setOpen(true)}
    />
  );
  if (props.kind === 'bank')
    return (
      <>
        {button}
        <SuggestionDialog<BankSuggestion>
          title={t('lookup.findBank')}
          path="suggest_bank"
          initialQuery={props.query}
          isOpen={open}
          onClose={() => setOpen(false)}
          item={(b) => ({ text: b.data.name.payment, label: b.data.bic })}
          onPick={(b) => {
            props.onFill(bankToAccount(b));
            setOpen(false);
          }}
        />
      </>
    );
  return (
    <>
      {button}
      <SuggestionDialog<CompanySuggestion>
        title={t('lookup.findCompany')}
        path="suggest_company"
        initialQuery={props.query}
        isOpen={open}
        onClose={() => setOpen(false)}
        item={(c) => ({
          text: (
            <>
              {c.value} <CompanyStatus status={c.data.state.status} />
            </>
          ),
          label: c.data.inn,
        })}
        onPick={(c) => {
          setCompany(c);
          setOpen(false);
        }}
      />
      <Dialog title={company?.value} isOpen={company !== null} onClose={() => setCompany(null)}>
        {company && (
          <>
            <DialogBody>
              <HTMLTable compact className="caravan-company-details">
                <tbody>
                  {[
                    [t('lookup.fullName'), company.data.name?.full_with_opf ?? company.value],
                    [t('lookup.status'), <CompanyStatus key="s" status={company.data.state.status} />],
                    ['ИНН', company.data.inn],
                    ['КПП', company.data.kpp ?? '—'],
                    [t('lookup.form'), company.data.opf.full ?? '—'],
                    [t('lookup.address'), company.data.address.value],
                    [t('lookup.director'), company.data.management?.name ?? '—'],
                  ].map(([label, value]) => (
                    <tr key={String(label)}>
                      <th>{label}</th>
                      <td>{value}</td>
                    </tr>
                  ))}
                </tbody>
              </HTMLTable>
            </DialogBody>
            <DialogFooter
              actions={
                <>
                  <Button text={t('common.cancel')} onClick={() => setCompany(null)} />
                  <Button
                    intent="primary"
                    text={t('lookup.fill')}
                    onClick={() => {
                      props.onFill(companyToLegalEntity(company));
                      setCompany(null);
                    }}
                  />
                </>
              }
            />
          </>
        )}
      </Dialog>
    </>
  );
}
