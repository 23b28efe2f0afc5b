import { Button, Dialog, DialogBody, DialogFooter, FormGroup, Slider, TextArea } from '@blueprintjs/core';
import {
  SUCCESS_RATE_MAX,
  SUCCESS_RATE_MIN,
  TASK_LABELS,
  TASK_MESSAGES,
  type Task,
} from '@caravan/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../toaster';
import { useTaskFinishMutation } from './api';

const DEFAULT_RATE = 5;

/**
 * The task-finish dialog (product-core §2, §4, §5): the result and the success rate on a slider 0..10
 * in steps of 1, labelled 'Оценка успешности: {n}'; sent with task_action_to_finished.
 */
export function TaskFinishDialog(props: {
  task: Pick<Task, 'id' | 'task_type_title' | 'content'> | null;
  onClose(): void;
  onFinished?(): void;
}) {
  const { t } = useTranslation();
  const [result, setResult] = useState('');
  const [rate, setRate] = useState(DEFAULT_RATE);
  const [finish, finishing] = useTaskFinishMutation();
  const close = () => {
    setResult('');
    setRate(DEFAULT_RATE);
    props.onClose();
  };
  const submit = async () => {
    if (!props.task) return;
    if (result.trim() === '') return void toast(TASK_MESSAGES.required(TASK_LABELS.result), 'danger');
    try {
      await finish({ id: props.task.id, result, success_rate: rate }).unwrap();
      void toast(TASK_MESSAGES.finishedToast, 'success');
      props.onFinished?.();
      close();
    } catch (err) {
      void toast((err as { message: string }).message, 'danger');
    }
  };
  return (
    <Dialog
      isOpen={props.task !== null}
      onClose={close}
      title={t('tasks.finishTitle', { title: props.task?.task_type_title ?? '' })}
    >
      <DialogBody>
        {props.task?.content ? <p>{props.task.content}</p> : null}
        <FormGroup label={TASK_LABELS.result} labelFor="task-result" labelInfo="*">
          <TextArea
            id="task-result"
            fill
            rows={4}
            value={result}
            onChange={(e) => setResult(e.target.value)}
          />
        </FormGroup>
        <FormGroup label={TASK_MESSAGES.successRate(rate)}>
          <Slider
            min={SUCCESS_RATE_MIN}
            max={SUCCESS_RATE_MAX}
            stepSize={1}
            labelStepSize={1}
            value={rate}
            onChange={setRate}
            handleHtmlProps={{ 'aria-label': TASK_LABELS.success_rate }}
          />
        </FormGroup>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('common.cancel')} onClick={close} />
            <Button
              intent="success"
              text={t('tasks.finish')}
              loading={finishing.isLoading}
              onClick={() => void submit()}
              data-testid="task-finish-submit"
            />
          </>
        }
      />
    </Dialog>
  );
}
