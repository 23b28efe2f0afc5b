import { Button, H5, HTMLTable } from '@blueprintjs/core';
import { MESSAGES, NEW_ID, type WhereCondition } from '@caravan/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDocumentListQuery, useDocumentSaveMutation, type EntityRow } from '../entityApi';
import { toast } from '../toaster';
import { ConfirmDialog } from './ConfirmDialog';
import { ReferenceSelect } from './inputs/ReferenceSelect';
import { RefTitle } from './RefTitle';

/**
 * The links of a document to others through a link entity (a route's product types and warehouses,
 * an operator's warehouses): listed with their titles, added through a reference select, removed
 * (soft-deleted) after a confirmation.
 */
export function LinkSection(props: {
  title: string;
  link: string;
  parentField: string;
  parentId: number;
  targetField: string;
  targetEntity: string;
  targetWhere?: WhereCondition[];
  editable: boolean;
}) {
  const { t } = useTranslation();
  const [save] = useDocumentSaveMutation();
  const [removing, setRemoving] = useState<EntityRow | null>(null);
  const { data } = useDocumentListQuery({
    entity: props.link,
    params: { filters: { [props.parentField]: props.parentId }, per_page: 200, order_by: 'id asc' },
  });
  const rows = data?.items ?? [];
  const titleKey = props.targetField.replace(/_id$/, '_title');
  const run = async (values: Record<string, unknown> & { id: number }) => {
    try {
      await save({ entity: props.link, values }).unwrap();
      void toast(MESSAGES.changesSaved, 'success');
    } catch (err) {
      void toast((err as { message?: string }).message ?? MESSAGES.somethingWentWrong, 'danger');
    }
  };
  return (
    <section className="caravan-link-section" data-testid={`links-${props.link}`}>
      <H5>{props.title}</H5>
      {rows.length === 0 ? (
        <p className="bp6-text-muted">{t('common.nothingFound')}</p>
      ) : (
        <HTMLTable compact>
          <tbody>
            {rows.map((row) => (
              <tr key={row.id}>
                <td>
                  {row[titleKey] !== undefined ? (
                    String(row[titleKey])
                  ) : (
                    // links kept apart from their targets (a user's clients) have no joined title
                    <RefTitle entity={props.targetEntity} id={row[props.targetField]} />
                  )}
                </td>
                <td>
                  {props.editable && (
                    <Button
                      size="small"
                      variant="minimal"
                      icon="cross"
                      aria-label={t('links.remove')}
                      onClick={() => setRemoving(row)}
                    />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
      {props.editable && (
        <ReferenceSelect
          entity={props.targetEntity}
          value={null}
          where={props.targetWhere}
          placeholder={t('links.add')}
          onChange={(targetId) =>
            targetId &&
            void run({ id: NEW_ID, [props.parentField]: props.parentId, [props.targetField]: targetId })
          }
        />
      )}
      <ConfirmDialog
        isOpen={removing !== null}
        intent="danger"
        text={t('links.removeConfirm', { title: removing ? String(removing[titleKey] ?? '') : '' })}
        confirmText={t('links.remove')}
        onConfirm={() => {
          if (removing) void run({ id: removing.id, deleted: true });
          setRemoving(null);
        }}
        onCancel={() => setRemoving(null)}
      />
    </section>
  );
}
