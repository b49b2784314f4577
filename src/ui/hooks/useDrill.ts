/**
 * The pages about one object, kept in step with the console's object control: the top page's
 * object is followed while it shows (and no longer once esc closes it), its data read with
 * useSyncExternalStore, and a `/` search on a page of text brings the first matching line
 * into view as it is typed, or as soon as one arrives (a describe's events come after its text).
 */
import { useEffect, useRef, useSyncExternalStore } from 'react';
import type { ObjectControl, ObjectView } from '../../app/console/objects.js';
import { viewOf, type DrillPage } from '../drill.js';
import type { NavAction, NavState } from '../navigation.js';
import { matchingLines, objectLines } from '../screens/object-lines.js';

/** Lines kept above a search's match, for context. */
const ABOVE_MATCH = 2;

export function useDrill(
  objects: ObjectControl,
  nav: NavState,
  dispatch: (a: NavAction) => void,
): { page?: DrillPage; view?: ObjectView } {
  const page = nav.drill?.at(-1);
  const followed = page
    ? [page.kind, page.of.cluster, page.of.apiVersion, page.of.kind, page.of.namespace ?? '', page.of.name].join(
        '\u0000',
      )
    : '';
  useEffect(() => {
    if (page) objects.follow({ page: page.kind, of: page.of });
    else objects.stop();
    // the page's selection or scroll changing follows nothing new
  }, [objects, followed]);
  useEffect(() => () => objects.stop(), [objects]);
  const all = useSyncExternalStore(objects.view.subscribe, objects.view.get, objects.view.get);
  const view = viewOf(page, all);
  const search = nav.filters.main;
  const first =
    page && page.kind !== 'pods' && search
      ? matchingLines(objectLines(page, view, { showSecrets: objects.showSecrets, now: objects.now() }), search)[0]
      : undefined;
  // the search whose match the page was moved to: later scrolling is the user's
  const shownFor = useRef('');
  useEffect(() => {
    if (!search) shownFor.current = '';
    if (!page || page.kind === 'pods' || first === undefined || shownFor.current === search) return;
    shownFor.current = search;
    dispatch({ type: 'drillPage', page: { ...page, scroll: Math.max(0, first - ABOVE_MATCH) } });
  }, [search, first]);
  return { ...(page ? { page } : {}), ...(view ? { view } : {}) };
}
