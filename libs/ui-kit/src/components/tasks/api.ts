import type { Task, TaskExecutor, TaskFinishParams, TaskTable } from '@caravan/contracts';
import { baseApi } from '../../api';

const TASKS = [{ type: 'Entity' as const, id: 'task' }];

/** The task calls beyond the generic ones (product-core §4): finishing, and who may be responsible. */
export const taskApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    taskExecutors: build.query<TaskExecutor[], { table_name: TaskTable; table_id: number }>({
      query: (params) => ({ method: 'task_executor_list', params }),
    }),
    taskFinish: build.mutation<Task, TaskFinishParams>({
      query: (params) => ({ method: 'task_action_to_finished', params }),
      invalidatesTags: TASKS,
    }),
  }),
});
export const { useTaskExecutorsQuery, useTaskFinishMutation } = taskApi;
