import { Route, Routes } from 'react-router-dom';
import { EntityItemPage } from './components/EntityItemPage';
import { EntityListPage } from './components/EntityListPage';
import type { EntityView } from './view';

/** The list at /{entity} and the item page at /{entity}/{id} of one directory. */
export function EntityScreens({ view }: { view: EntityView }) {
  return (
    <Routes>
      <Route index element={<EntityListPage view={view} />} />
      {view.itemPage !== false && (
        <Route path=":id" element={<EntityItemPage key={view.entity} view={view} />} />
      )}
    </Routes>
  );
}
