import { EntityScreens } from '@caravan/ui-kit';
import '../wallet.css';
import { finOperationView } from './finOperationView';

/** /fin_operation: the list and /fin_operation/{id}: one movement, read-only. */
export default function FinOperationScreens() {
  return <EntityScreens view={finOperationView} />;
}
