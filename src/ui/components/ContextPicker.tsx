/**
 * `:ctx` without a name: pick the context for stacks that name none, through ink-select-input
 * (arrows and enter; esc closes).
 */
import { Box, Text } from 'ink';
import SelectInput from 'ink-select-input';
import type { ContextEntry } from '../../app/console/state.js';
import { theme } from '../../views/theme.js';

export function ContextPicker({
  contexts,
  current,
  onPick,
}: {
  contexts: ContextEntry[];
  current?: string;
  onPick: (name: string) => void;
}) {
  const items = contexts.map((c) => ({
    key: c.name,
    label: `${c.name}${c.prod ? '  (prod)' : ''}${c.name === current ? '  ← now' : ''}`,
    value: c.name,
  }));
  return (
    <Box flexDirection="column">
      <Text bold>The context for stacks that name no cluster:</Text>
      <SelectInput
        items={items}
        initialIndex={Math.max(
          0,
          contexts.findIndex((c) => c.name === current),
        )}
        onSelect={(item) => onPick(item.value)}
      />
      <Text color={theme.muted}>enter picks it, esc leaves it as it is</Text>
    </Box>
  );
}
