import { useEffect, useState } from 'react';

/** Phones and narrow windows: the side menu becomes a drawer behind the menu button. */
export const PHONE_QUERY = '(max-width: 768px)';

/** Whether a CSS media query matches now, following changes (rotation, resizing). */
export function useMediaQuery(query: string): boolean {
  const [matches, setMatches] = useState(() => window.matchMedia(query).matches);
  useEffect(() => {
    const list = window.matchMedia(query);
    const update = () => setMatches(list.matches);
    update();
    list.addEventListener('change', update);
    return () => list.removeEventListener('change', update);
  }, [query]);
  return matches;
}
