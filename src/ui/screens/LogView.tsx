/**
 * The log of a pod, or of every pod of a workload: a title line (what, where, following or
 * not, which container), for `p` the way each previous run ended (exit code and reason from
 * lastState.terminated), a note when older lines were let go, the newest lines that fit (cut
 * to the width or wrapped, search matches highlighted), where the view is, and the kubectl
 * command that reads the same log.
 */
import { useSyncExternalStore } from 'react';
import { Box, Text } from 'ink';
import type { LogFeed, LogFeedState, LogSource } from '../../app/pods/log-feed.js';
import { commandLine, kubectlName, logsArgs, type KubectlBase } from '../../app/pods/target.js';
import { cut, fit, wrapWords } from '../../views/text.js';
import { theme } from '../../views/theme.js';
import { backNow, type LogNav } from '../log-nav.js';
import { logRows, matchingLines, type LogRow } from './log-rows.js';

export function useLogFeed(feed: LogFeed): LogFeedState {
  return useSyncExternalStore(feed.store.subscribe, feed.store.get);
}

/** `kubectl … logs -f pod/web-1 -c app`, or `… logs -f -l app=web --prefix` for a workload. */
export function logCommand(base: KubectlBase, s: LogFeedState): string {
  const target = { ...s.target, ...(s.container ? { container: s.container } : {}) };
  return commandLine(
    base,
    logsArgs(base, target, {
      follow: s.follow,
      previous: s.previous,
      tailLines: s.tailLines,
      ...(s.selector ? { selector: s.selector } : {}),
    }),
  );
}

function title(s: LogFeedState): string {
  const t = s.target;
  const pods = t.kind === 'Pod' ? '' : ` (${s.sources.length} pod${s.sources.length === 1 ? '' : 's'})`;
  const how = s.previous ? 'previous runs' : s.follow ? 'following' : 'not following';
  const container = s.container ? `container ${s.container}` : s.containers.length > 1 ? 'default containers' : '';
  // the context and namespace are in the kubectl command below
  return [`Log ${kubectlName(t)}${pods}`, how, container].filter(Boolean).join(' · ');
}

function endedText(src: LogSource): string {
  const t = src.termination;
  const restarts = `${src.restarts} restart${src.restarts === 1 ? '' : 's'}`;
  if (!t) return `${src.key}: no previous run (${restarts})${src.message ? `: ${src.message}` : ''}`;
  const at = t.finishedAt ? ` · ended ${t.finishedAt.replace('T', ' ').replace(/\.\d+/, '').replace('Z', ' UTC')}` : '';
  const signal = t.signal !== undefined ? `, signal ${t.signal}` : '';
  // the exit code and reason first: they are what a narrow screen must not cut
  return `${src.key}: exit code ${t.exitCode}${signal}, reason ${t.reason || 'none given'}${at} · ${restarts}`;
}

interface Note {
  text: string;
  tone: 'danger' | 'warning' | 'muted';
}

/** The lines above the log: previous runs' ends, refusals, the dropped count. */
function headerLines(s: LogFeedState, room: number): Note[] {
  const out: Note[] = [];
  if (s.error) out.push({ text: s.error, tone: 'danger' });
  const notes = s.sources.flatMap((src): Note[] => {
    if (s.previous) return [{ text: endedText(src), tone: src.termination ? 'danger' : 'muted' }];
    if (src.state === 'refused' || (src.state !== 'streaming' && src.message))
      return [{ text: `${src.key}: ${src.message}`, tone: 'warning' }];
    return [];
  });
  const shown = notes.slice(0, Math.max(1, room));
  out.push(...shown);
  if (notes.length > shown.length)
    out[out.length - 1] = { text: `…and ${notes.length - shown.length + 1} more pods`, tone: 'muted' };
  if (s.buffer.dropped)
    out.push({
      text: `${s.buffer.dropped.toLocaleString('en')} older lines dropped: the view keeps the newest ${s.tailLines.toLocaleString('en')}`,
      tone: 'muted',
    });
  return out;
}

function Row({ row }: { row: LogRow }) {
  if (!row.text) return <Text> </Text>;
  const parts: { text: string; match: boolean; prefix: boolean }[] = [];
  const cutAt = [0, row.prefix, ...row.matches.flat(), row.text.length].filter((n, i, all) => all.indexOf(n) === i);
  cutAt.sort((a, b) => a - b);
  for (let i = 0; i < cutAt.length - 1; i++) {
    const [a, b] = [cutAt[i]!, cutAt[i + 1]!];
    if (b <= a) continue;
    parts.push({
      text: row.text.slice(a, b),
      match: row.matches.some(([x, y]) => a >= x && b <= y),
      prefix: b <= row.prefix,
    });
  }
  return (
    <Text>
      {parts.map((p, i) => (
        <Text
          key={i}
          inverse={p.match}
          bold={p.match}
          color={p.match ? theme.warning : p.prefix ? theme.muted : undefined}
        >
          {p.text}
        </Text>
      ))}
    </Text>
  );
}

export interface LogViewProps {
  logs: LogNav;
  /** The kubeconfig and context kubectl would use, for the command that reads the same log. */
  kubectl: (context: string) => KubectlBase;
  width: number;
  height: number;
  /** Keys, as bound, for the hints. */
  keys: { follow: string; bottom: string; back: string; move: string };
  /** The container picker's selected row (0: each pod's default), while it is open. */
  picking?: number;
}

export function LogView({ logs, kubectl, width, height, keys, picking }: LogViewProps) {
  const state = useLogFeed(logs.feed);
  const command = logCommand(kubectl(state.target.context), state);
  const header = headerLines(state, Math.max(1, Math.floor(height / 4)));
  // the whole command when it fits in three rows (it does at 80 columns): it is there to be copied
  const commandRows = wrapWords(command, width);
  const shownCommand =
    commandRows.length > 3 ? [...commandRows.slice(0, 2), cut(commandRows.slice(2).join(' '), width)] : commandRows;
  const bodyHeight = Math.max(1, height - 2 - shownCommand.length - header.length);
  const lines = state.buffer.lines;
  const back = backNow(logs, state.buffer);
  const rows = logRows(lines, {
    width,
    height: bodyHeight,
    back,
    wrap: logs.wrap,
    timestamps: logs.timestamps,
    prefixed: state.target.kind !== 'Pod',
    search: logs.search,
  });
  const matches = matchingLines(lines, logs.search);
  const where = back
    ? `${back} newer line${back === 1 ? '' : 's'} below (${keys.bottom})`
    : state.previous
      ? `${lines.length} lines of the previous runs`
      : state.follow
        ? `${lines.length} lines, following the newest`
        : `${lines.length} lines; ${keys.follow} follows`;
  const search = logs.search ? `  /${logs.search}: ${matches} line${matches === 1 ? '' : 's'} match` : '';
  const flags = `${logs.wrap ? '  wrap' : ''}${logs.timestamps ? '  timestamps' : ''}`;
  return (
    <Box flexDirection="column" height={height}>
      <Text bold>{fit(title(state), width)}</Text>
      {header.map((h, i) => (
        <Text key={i} color={theme[h.tone]}>
          {fit(h.text, width)}
        </Text>
      ))}
      <Box flexDirection="column" height={bodyHeight}>
        {picking !== undefined ? (
          <Box flexDirection="column">
            <Text bold>{fit('The container to read in each pod:', width)}</Text>
            {["each pod's default container", ...state.containers].map((c, i) => (
              <Text key={c} bold={i === picking} inverse={i === picking}>
                {fit(`${i === picking ? '▸ ' : '  '}${c}`, width)}
              </Text>
            ))}
            <Text color={theme.muted}>
              {fit(`${keys.move} and enter pick it, ${keys.back} leaves it as it is`, width)}
            </Text>
          </Box>
        ) : rows.length === 0 ? (
          <Text color={theme.muted}>
            {fit(
              state.loading ? 'Finding the pods…' : state.sources.length ? 'No lines yet.' : 'No pod to read yet.',
              width,
            )}
          </Text>
        ) : (
          rows.map((r) => <Row key={r.key} row={r} />)
        )}
      </Box>
      <Text color={theme.muted}>{fit(`${where}${search}${flags}`, width)}</Text>
      {shownCommand.map((row, i) => (
        <Text key={i} color={theme.muted}>
          {fit(row, width)}
        </Text>
      ))}
    </Box>
  );
}
