import { useDocumentGetQuery } from '../entityApi';
import { titleOfRow } from '../fields';

/** The title of a referenced record, for list columns of entities in another service (no joined title there). */
export function RefTitle({ entity, id }: { entity: string; id: unknown }) {
  const valid = typeof id === 'number' && id > 0;
  const { data } = useDocumentGetQuery({ entity, id: valid ? id : 0 }, { skip: !valid });
  if (!valid) return null;
  return <>{data ? titleOfRow(data) : `#${id}`}</>;
}
