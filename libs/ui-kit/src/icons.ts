import { Icons, IconSize, type IconName, type IconPaths } from '@blueprintjs/icons';

/**
 * The icons the app names (`icon="add"`), each loaded as its own tiny chunk. Blueprint's default
 * loader fetches every icon of a size at once (~98 KB gz). Add a name here when a screen uses a new
 * icon; an unlisted one still renders, through the full set, with a warning in the console.
 */
export const APP_ICONS =
  /^(add|archive|arrow-left|arrow-right|bank-account|blocked-person|box|briefcase|calculator|calendar|camera|caret-down|chat|chevron-left|chevron-right|clipboard|code|column-layout|credit-card|cross|cube|document|document-share|dollar|double-chevron-left|double-chevron-right|duplicate|edit|error|exchange|eye-open|filter|floppy-disk|flow-linear|globe|history|home|import|inbox|info-sign|link|lock|log-out|map-marker|menu|merge-columns|moon|move|notifications|office|offline|paperclip|path-search|people|phone|refresh|route|search|send-message|share|shield|shop|shopping-cart|sort|sort-asc|sort-desc|split-columns|star|star-empty|tag|th|th-list|tick|tick-circle|time|translate|trash|truck|undo|updated|user|warning-sign)$/;

const loadListed = (name: string, size: number): Promise<{ default: IconPaths }> =>
  import(
    /* webpackInclude: /\/(add|archive|arrow-left|arrow-right|bank-account|blocked-person|box|briefcase|calculator|calendar|camera|caret-down|chat|chevron-left|chevron-right|clipboard|code|column-layout|credit-card|cross|cube|document|document-share|dollar|double-chevron-left|double-chevron-right|duplicate|edit|error|exchange|eye-open|filter|floppy-disk|flow-linear|globe|history|home|import|inbox|info-sign|link|lock|log-out|map-marker|menu|merge-columns|moon|move|notifications|office|offline|paperclip|path-search|people|phone|refresh|route|search|send-message|share|shield|shop|shopping-cart|sort|sort-asc|sort-desc|split-columns|star|star-empty|tag|th|th-list|tick|tick-circle|time|translate|trash|truck|undo|updated|user|warning-sign)\.js$/ */
    /* webpackChunkName: "icon-[request]" */
    `@blueprintjs/icons/lib/esm/generated/${size}px/paths/${name}.js`
  );

async function loadIcon(name: IconName, size: IconSize): Promise<IconPaths> {
  const pixels = size === IconSize.STANDARD ? 16 : 20;
  if (APP_ICONS.test(name)) return (await loadListed(name, pixels)).default;
  console.warn(`icon "${name}" is not in APP_ICONS (libs/ui-kit/src/icons.ts): loading the full icon set`);
  const { getIconPaths } = await import('@blueprintjs/icons/lib/esm/allPaths.js');
  return getIconPaths(name, size);
}

export const installIconLoader = () => Icons.setLoaderOptions({ loader: loadIcon });
