import '@blueprintjs/core/lib/css/blueprint.css';
import './styles.css';
import { createAppStore, initI18n, installIconLoader } from '@caravan/ui-kit';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { BrowserRouter } from 'react-router-dom';
import { App } from './App';

initI18n();
installIconLoader();
const store = createAppStore();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Provider store={store}>
      <BrowserRouter>
        <App />
      </BrowserRouter>
    </Provider>
  </StrictMode>,
);
