import '@blueprintjs/core/lib/css/blueprint.css';
import { initI18n, installIconLoader, StandaloneApp } from '@caravan/ui-kit';
import { createRoot } from 'react-dom/client';
import routes from './routes';

initI18n();
installIconLoader();
createRoot(document.getElementById('root')!).render(<StandaloneApp title="заказы" routes={routes} />);
