import { Button, Card, FormGroup, H3, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { MESSAGES, NEW_ID, wordsOf } from '@caravan/contracts';
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { fieldLabel } from '../i18n';
import { useNavigate, useParams, useResolvedPath } from 'react-router-dom';
import { useDocumentGetQuery, useDocumentSaveMutation } from '../entityApi';
import {
  changedValues,
  hasUnsavedChanges,
  invalidFields,
  missingRequired,
  titleOfRow,
  type FieldDef,
  type Values,
  rebaseEdits,
} from '../fields';
import { listUrlOf } from '../listUrl';
import { useCurrentUser } from '../session';
import { clearToasts, toast } from '../toaster';
import type { EntityView } from '../view';
import { ConfirmDialog } from './ConfirmDialog';
import { FieldInput } from './FieldInput';
import { HistoryDialog } from './HistoryDialog';
import { useLeaveGuard } from './LeaveGuard';

const errorText = (err: unknown) => (err as { message?: string }).message ?? MESSAGES.somethingWentWrong;

/**
 * The item page /{entity}/{id} (spec §2): id -1 is a new document and its first save lands on the
 * item's URL; save and cancel; required fields block the save with one toast per field; delete and
 * restore behind a confirmation; the history dialog; leaving unsaved edits asks first.
 */
export function EntityItemPage({ view }: { view: EntityView }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const user = useCurrentUser();
  const id = Number(useParams().id);
  const listPath = useResolvedPath('..', { relative: 'path' }).pathname;
  const isNew = id === NEW_ID;
  const {
    data: stored,
    error,
    isFetching,
  } = useDocumentGetQuery({ entity: view.entity, id }, { skip: isNew || !Number.isInteger(id) });
  const [save, { isLoading: saving }] = useDocumentSaveMutation();
  const initial = useMemo(() => view.initial?.(user) ?? {}, [view, user]);
  const [values, setValues] = useState<Values>(() => (isNew ? initial : {}));
  const [confirming, setConfirming] = useState(false);
  const [showHistory, setShowHistory] = useState(false);

  // a newer copy of the row (a live event, an import that set the order number) keeps what the user typed
  const loaded = useRef<Values | undefined>(undefined);
  useEffect(() => {
    if (!stored) return;
    const before = loaded.current;
    loaded.current = stored;
    setValues((prev) => (before ? rebaseEdits(prev, before, stored) : stored));
  }, [stored]);
  useEffect(() => {
    if (isNew) setValues(initial);
  }, [isNew, initial]);
  const base = isNew ? initial : stored;
  const { dialog: leaveDialog, leaveFreely } = useLeaveGuard(
    base !== undefined && hasUnsavedChanges(values, base, view.fields),
  );

  if (!Number.isInteger(id)) return <NonIdealState icon="error" title={MESSAGES.notFound} />;
  if (!isNew && error) return <NonIdealState icon="error" title={errorText(error)} />;
  if (!isNew && !stored) return <Spinner />;

  // what the server says this user may do with this row (absent: the view's own rule alone)
  const rights = (stored as { _rights?: { write?: boolean; delete?: boolean } } | undefined)?._rights;
  const editable = (view.canEdit?.(user, values) ?? true) && rights?.write !== false;
  const deletable = (view.canDelete?.(user) ?? editable) && rights?.delete !== false;
  const visible = view.fields.filter((f) => !f.hidden?.(values, user));
  const deleted = Boolean(stored?.deleted);

  const toastGroup = `item:${view.entity}:${id}`;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const label = (f: FieldDef) => fieldLabel(t, f, view.entity);
    const missing = missingRequired(visible, values);
    missing.forEach(
      (f) => void toast(wordsOf(i18n.language).required(label(f)), 'warning', 5000, toastGroup),
    );
    const invalid = invalidFields(visible, values, { label, language: i18n.language });
    invalid.forEach((message) => void toast(message, 'warning', 5000, toastGroup));
    if (missing.length || invalid.length) return;
    const changes = changedValues(values, stored, visible);
    if (!isNew && !Object.keys(changes).length) return void toast(MESSAGES.nothingToUpdate);
    try {
      const row = await save({ entity: view.entity, values: { id, ...changes } }).unwrap();
      void clearToasts(toastGroup);
      void toast(MESSAGES.changesSaved, 'success');
      if (isNew) leaveFreely(() => navigate(`../${row.id}`, { replace: true, relative: 'path' }));
      else setValues(row);
    } catch (err) {
      void toast(errorText(err), 'danger', 5000, toastGroup);
    }
  };

  const toggleDeleted = async () => {
    setConfirming(false);
    try {
      await save({ entity: view.entity, values: { id, deleted: !deleted } }).unwrap();
      void toast(deleted ? t('list.restored') : t('item.deletedToast'), 'success');
    } catch (err) {
      void toast(errorText(err), 'danger');
    }
  };

  const title = isNew ? t('common.newRecord') : (view.itemTitle?.(values) ?? titleOfRow(values));
  return (
    <Card className="caravan-item-page" data-testid="item-page">
      <div className="caravan-item-header">
        <H3>
          {t(view.title)}: {title} {deleted && <Tag intent="danger">{t('item.deleted')}</Tag>}
        </H3>
        {!isNew && <Button icon="history" text={t('history.title')} onClick={() => setShowHistory(true)} />}
      </div>
      {!isNew && view.header?.({ id, values: stored ?? values, editable: editable && !deleted })}
      <form onSubmit={submit}>
        <div className="caravan-form-grid">
          {visible.map((f) => (
            <FormGroup
              key={f.name}
              className={
                f.wide || ['table', 'images', 'files', 'hours', 'textarea', 'refs'].includes(f.kind ?? '')
                  ? 'caravan-wide'
                  : undefined
              }
              label={fieldLabel(t, f, view.entity)}
              labelFor={`field-${f.name}`}
              labelInfo={f.required ? '*' : undefined}
            >
              <FieldInput
                id={`field-${f.name}`}
                field={f}
                value={values[f.name]}
                values={values}
                disabled={
                  !editable ||
                  deleted ||
                  f.readOnly?.(values, user) ||
                  (!isNew && view.fieldLocked?.(f.name, stored ?? values, user))
                }
                onChange={(v) => setValues((prev) => ({ ...prev, [f.name]: v }))}
                onPatch={(patch) => setValues((prev) => ({ ...prev, ...patch }))}
              />
            </FormGroup>
          ))}
        </div>
        <div className="caravan-item-actions">
          {editable && !deleted && (
            <Button
              type="submit"
              intent="primary"
              icon="floppy-disk"
              text={t('common.save')}
              loading={saving}
            />
          )}
          <Button
            text={t('common.cancel')}
            onClick={() => leaveFreely(() => navigate(listUrlOf(listPath)))}
          />
          {deletable && !isNew && (
            <Button
              intent={deleted ? 'success' : 'danger'}
              variant="outlined"
              icon={deleted ? 'undo' : 'trash'}
              text={deleted ? t('list.restore') : t('item.delete')}
              onClick={() => setConfirming(true)}
            />
          )}
          {isFetching && <Spinner size={16} />}
        </div>
      </form>
      {!isNew && view.sections?.({ id, values: stored ?? values, editable: editable && !deleted })}
      <ConfirmDialog
        isOpen={confirming}
        intent={deleted ? 'success' : 'danger'}
        text={deleted ? t('list.restoreConfirm') : t('item.deleteConfirm')}
        confirmText={deleted ? t('list.restore') : t('item.delete')}
        onConfirm={() => void toggleDeleted()}
        onCancel={() => setConfirming(false)}
      />
      {leaveDialog}
      {!isNew && (
        <HistoryDialog
          entity={view.entity}
          id={id}
          fields={view.fields}
          isOpen={showHistory}
          onClose={() => setShowHistory(false)}
        />
      )}
    </Card>
  );
}
