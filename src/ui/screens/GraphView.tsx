/**
 * Graph: the stack's resource DAG drawn by levels with the edges into each resource, implicit
 * ones (references) marked apart from dependsOn; the selected resource's dependencies (▲) and
 * dependents (▼), direct or not, are highlighted.
 */
import { useMemo } from 'react';
import { Box, Text } from 'ink';
import { idParts, shortId } from '../../model/ids.js';
import { cut, fit, fitAs, windowStart } from '../../views/text.js';
import { theme } from '../../views/theme.js';
import { graphLayout } from './graph-layout.js';
import type { ViewProps } from './ResourcesView.js';

/** `ConfigMap/redis-conf`: an edge's end, short (a stack's resources mostly share a namespace). */
const kindAndName = (id: string) => {
  const p = idParts(id);
  return `${p.kind}/${p.name}`;
};

export function GraphView({ entry, selectedId, width, height, focused }: ViewProps & { selectedId?: string }) {
  const graph = entry.graph;
  const layout = useMemo(() => (graph ? graphLayout(graph) : undefined), [graph]);
  const related = useMemo(
    () =>
      graph && selectedId && graph.ids.includes(selectedId)
        ? { up: graph.ancestorsOf(selectedId), down: graph.descendantsOf(selectedId) }
        : { up: new Set<string>(), down: new Set<string>() },
    [graph, selectedId],
  );
  // when every resource shares one namespace, the summary names it and the rows leave it out
  const shared = useMemo(() => {
    const spaces = new Set(graph?.ids.map((id) => idParts(id).namespace).filter(Boolean));
    return spaces.size === 1 ? [...spaces][0] : undefined;
  }, [graph]);
  if (!graph || !layout) return <Text color={theme.muted}>{fit('Compiling…', width)}</Text>;
  const label = shared ? kindAndName : shortId;
  const bodyHeight = Math.max(1, height - 2);
  const at = layout.order.indexOf(selectedId ?? '');
  const start = windowStart(layout.lines.length, at, bodyHeight);
  const nameWidth = Math.min(48, Math.max(20, Math.floor((width - 6) * 0.55)));
  const edgeWidth = Math.max(0, width - 6 - nameWidth);
  return (
    <Box flexDirection="column" height={height}>
      <Text color={theme.muted}>{fit(`${layout.summary}${shared ? `, in ${shared}` : ''}`, width)}</Text>
      <Box flexDirection="column" height={bodyHeight}>
        {layout.lines.slice(start, start + bodyHeight).map((l) => {
          const isSelected = l.id === selectedId;
          const mark = isSelected ? '▸' : related.up.has(l.id) ? '▲' : related.down.has(l.id) ? '▼' : '·';
          const tone = isSelected
            ? undefined
            : related.up.has(l.id)
              ? theme.accent
              : related.down.has(l.id)
                ? theme.warning
                : undefined;
          const edges = l.from.map((f) => `${f.implicit ? '⇠' : '←'} ${kindAndName(f.id)}`).join('  ');
          return (
            <Text key={l.id}>
              <Text color={theme.muted}>{fit(l.firstOfLevel ? `L${l.level}` : '', 4)}</Text>
              <Text color={tone} inverse={isSelected && focused} bold={isSelected || tone !== undefined}>
                {mark} {fitAs(label(l.id), nameWidth - 1, 'middle')}{' '}
              </Text>
              <Text color={theme.muted}>{cut(edges, edgeWidth)}</Text>
            </Text>
          );
        })}
      </Box>
      <Text color={theme.muted}>
        {fit('← dependsOn  ⇠ reference (implicit)  ▲ what it needs  ▼ what needs it', width)}
      </Text>
    </Box>
  );
}
