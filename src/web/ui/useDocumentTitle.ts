import { useEffect } from 'react';

/** Sets the browser tab title for the screen; screen readers announce it after navigation. */
export function useDocumentTitle(title: string) {
  useEffect(() => {
    document.title = title;
  }, [title]);
}
