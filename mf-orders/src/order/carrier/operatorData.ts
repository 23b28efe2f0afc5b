import type { OperatorClient, TransportCompanyData } from '@caravan/contracts';
import { useCurrentUser, useDocumentGetQuery, userIsStaff, type Values } from '@caravan/ui-kit';

/** A carrier's API data in the operator's transport_company_data, or null. */
export function carrierApiData(operator: Values | undefined, carrier: string) {
  const list = (operator?.transport_company_data as TransportCompanyData[] | undefined) ?? [];
  return list.find((d) => d.type === carrier)?.api_data ?? null;
}

/** The order's client in the operator's client list (its identifier at the operator), or null. */
export function operatorClient(operator: Values | undefined, clientId: unknown) {
  const list = (operator?.client_list as OperatorClient[] | undefined) ?? [];
  return list.find((c) => c.id === clientId) ?? null;
}

/** The order's operator, loaded for staff only (spec §6: operator details load on the order screen for them). */
export function useOrderOperator(order: Values) {
  const user = useCurrentUser();
  const staff = userIsStaff(user);
  const id = order.operator_id as number | null | undefined;
  const { data, isSuccess } = useDocumentGetQuery(
    { entity: 'operator', id: id ?? 0 },
    { skip: !staff || !id },
  );
  return { staff, operator: isSuccess ? (data as Values) : undefined };
}
