import '@blueprintjs/core/lib/css/blueprint.css';
// ui-kit's own styles, which its barrel imports, are wanted before any of its screens load
import '@caravan/ui-kit/src/styles.css';
import './styles.css';
import { initI18n, installIconLoader, languageReady } from '@caravan/ui-kit';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';

initI18n();
installIconLoader();

// The router and the store come with the signed-in workspace (./Workspace), not with the login page;
// the English table only when English was chosen.
void languageReady().then(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
