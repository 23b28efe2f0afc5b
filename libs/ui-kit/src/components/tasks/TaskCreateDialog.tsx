import { Button, Dialog, DialogBody, DialogFooter, FormGroup, HTMLSelect, TextArea } from '@blueprintjs/core';
import { TASK_LABELS, TASK_MESSAGES, TASK_REQUIRED, TASK_TYPES, type TaskTable } from '@caravan/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDocumentSaveMutation } from '../../entityApi';
import { toast } from '../../toaster';
import { DateInput } from '../inputs/DateInput';
import { useTaskExecutorsQuery } from './api';

type Draft = {
  task_type_id: number | null;
  deadline: string | null;
  executor_id: number | null;
  content: string;
};
const EMPTY: Draft = { task_type_id: null, deadline: null, executor_id: null, content: '' };

/** The spec's refusal of each required field left empty, in the dialog's order ('Поле "{title}" не заполнено'). */
export const taskDraftProblems = (draft: Draft): string[] =>
  TASK_REQUIRED.filter((f) => draft[f] === null || draft[f] === '').map((f) =>
    TASK_MESSAGES.required(TASK_LABELS[f]),
  );

/**
 * The task-create dialog (product-core §2, §5): type, deadline and responsible are required — each
 * one left empty is named in the spec's words and nothing is sent; the responsible is chosen among the
 * staff who reach the object (task_executor_list). The service checks everything again.
 */
export function TaskCreateDialog(props: {
  isOpen: boolean;
  onClose(): void;
  tableId: number;
  tableName?: TaskTable;
  onCreated?(id: number): void;
}) {
  const { t } = useTranslation();
  const tableName = props.tableName ?? 'client_order';
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const executors = useTaskExecutorsQuery(
    { table_name: tableName, table_id: props.tableId },
    { skip: !props.isOpen },
  );
  const [save, saving] = useDocumentSaveMutation();
  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));
  const close = () => {
    setDraft(EMPTY);
    props.onClose();
  };

  const submit = async () => {
    const problems = taskDraftProblems(draft);
    if (problems.length) return void problems.forEach((p) => void toast(p, 'danger'));
    try {
      const created = await save({
        entity: 'task',
        values: { id: -1, table_name: tableName, table_id: props.tableId, ...draft },
      }).unwrap();
      void toast(TASK_MESSAGES.createdToast, 'success');
      props.onCreated?.(created.id);
      close();
    } catch (err) {
      void toast((err as { message: string }).message, 'danger');
    }
  };

  return (
    <Dialog isOpen={props.isOpen} onClose={close} title={t('tasks.createTitle')}>
      <DialogBody>
        <FormGroup label={TASK_LABELS.task_type_id} labelFor="task-type" labelInfo="*">
          <HTMLSelect
            id="task-type"
            fill
            value={draft.task_type_id ?? ''}
            onChange={(e) => set({ task_type_id: e.target.value ? Number(e.target.value) : null })}
          >
            <option value="">{t('common.choose')}</option>
            {TASK_TYPES.map((type) => (
              <option key={type.id} value={type.id}>
                {type.title}
              </option>
            ))}
          </HTMLSelect>
        </FormGroup>
        <FormGroup label={TASK_LABELS.deadline} labelFor="task-deadline" labelInfo="*">
          <DateInput
            id="task-deadline"
            withTime
            value={draft.deadline}
            onChange={(deadline) => set({ deadline })}
          />
        </FormGroup>
        <FormGroup label={TASK_LABELS.executor_id} labelFor="task-executor" labelInfo="*">
          <HTMLSelect
            id="task-executor"
            fill
            disabled={executors.isFetching}
            value={draft.executor_id ?? ''}
            onChange={(e) => set({ executor_id: e.target.value ? Number(e.target.value) : null })}
          >
            <option value="">{executors.isFetching ? t('common.loading') : t('common.choose')}</option>
            {(executors.data ?? []).map((u) => (
              <option key={u.id} value={u.id}>
                {u.fullname}
              </option>
            ))}
          </HTMLSelect>
        </FormGroup>
        <FormGroup label={TASK_LABELS.content} labelFor="task-content">
          <TextArea
            id="task-content"
            fill
            rows={4}
            value={draft.content}
            onChange={(e) => set({ content: e.target.value })}
          />
        </FormGroup>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('common.cancel')} onClick={close} />
            <Button
              intent="primary"
              text={t('tasks.create')}
              loading={saving.isLoading}
              onClick={() => void submit()}
              data-testid="task-create-submit"
            />
          </>
        }
      />
    </Dialog>
  );
}
