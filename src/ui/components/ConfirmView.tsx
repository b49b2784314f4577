/**
 * Asking before a dangerous action: what it will do, then y/N, or, when it touches a prod
 * context, the stack's name typed in full (Shopify's DangerousConfirmationPrompt). Esc cancels.
 */
import { Box, Text } from 'ink';
import type { Confirmation } from '../../app/console/confirmation.js';
import { cut, fit, wrapWords } from '../../views/text.js';
import { theme } from '../../views/theme.js';

export function ConfirmView({ confirm, input, width }: { confirm: Confirmation; input: string; width: number }) {
  const verb = {
    apply: 'Apply',
    destroy: 'Destroy',
    recover: 'Run the recovery',
    restart: 'Restart',
    scale: 'Scale',
    delete: 'Delete',
  }[confirm.action];
  return (
    <Box
      flexDirection="column"
      borderStyle="double"
      borderColor={confirm.typed ? theme.danger : theme.warning}
      paddingX={1}
      width={width}
    >
      <Text bold color={confirm.typed ? theme.danger : theme.warning}>
        {cut(`${verb} ${confirm.subject}?`, width - 4)}
      </Text>
      {/* wrapped, not cut: what is confirmed is read whole */}
      {confirm.summary
        .flatMap((l) => wrapWords(l, width - 4))
        .map((l, i) => (
          <Text key={i}>{l}</Text>
        ))}
      <Text> </Text>
      {confirm.typed ? (
        <Text wrap="truncate-end">
          <Text>Type </Text>
          <Text bold>{confirm.typed}</Text>
          <Text> to {confirm.action === 'recover' ? 'run it' : confirm.action}, esc to cancel: </Text>
          <Text color={input && !confirm.typed.startsWith(input) ? theme.danger : undefined}>{input}</Text>
          <Text inverse> </Text>
        </Text>
      ) : (
        <Text>
          {fit(`${confirm.action === 'recover' ? 'Run it' : verb}? y to go ahead, n or esc to cancel`, width - 4)}
        </Text>
      )}
    </Box>
  );
}
