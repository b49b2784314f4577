/**
 * The main pane's views, in the order of their number keys.
 */
export const VIEWS = [
  { id: 'resources', title: 'Resources' },
  { id: 'graph', title: 'Graph' },
  { id: 'diff', title: 'Diff' },
  { id: 'apply', title: 'Apply' },
  { id: 'recovery', title: 'Recovery' },
  { id: 'events', title: 'Events' },
] as const;

export type ViewId = (typeof VIEWS)[number]['id'];

export function viewByName(name: string): ViewId | undefined {
  const n = name.toLowerCase();
  return VIEWS.find((v) => v.id === n || v.title.toLowerCase() === n)?.id;
}
