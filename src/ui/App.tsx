/**
 * The console's screen: header, the stack tree beside the main pane, the status line and the
 * footer, sized to the terminal (one line short of it, so Ink never clears the screen). State
 * lives in hooks, one per concern: the session's store, navigation, what the screen shows,
 * what keys do, and the one keyboard listener.
 */
import { useEffect, useMemo } from 'react';
import { Box, Text } from 'ink';
import type { Bindings } from './actions.js';
import { ConfirmView } from './components/ConfirmView.js';
import { ContextPicker } from './components/ContextPicker.js';
import { Footer } from './components/Footer.js';
import { Header } from './components/Header.js';
import { helpLines, HelpView } from './components/HelpView.js';
import { Pane, PaneTitle } from './components/Pane.js';
import { StackTree } from './components/StackTree.js';
import { StatusLine } from './components/StatusLine.js';
import { useCommands } from './hooks/useCommands.js';
import { useConsoleState } from './hooks/useConsoleState.js';
import { useKeyRouter } from './hooks/useKeyRouter.js';
import { useNavigation } from './hooks/useNavigation.js';
import { deriveScreen, useScreen } from './hooks/useScreen.js';
import { useTerminalSize } from './hooks/useTerminalSize.js';
import { keyLabel } from './keys.js';
import { ApplyView } from './screens/ApplyView.js';
import { DiffView } from './screens/DiffView.js';
import { EventsView } from './screens/EventsView.js';
import { GraphView } from './screens/GraphView.js';
import { MainPane } from './screens/MainPane.js';
import { RecoveryView } from './screens/RecoveryView.js';
import { ResourcesView } from './screens/ResourcesView.js';
import { logCommand, LogView } from './screens/LogView.js';
import { DrillView } from './screens/DrillView.js';
import { useDrill } from './hooks/useDrill.js';
import type { ConsoleControl } from '../app/console/control.js';
import { filterRows } from './derive.js';
import { currentEvent, currentMessage } from './status.js';
import { fit } from '../views/text.js';
import { theme } from '../views/theme.js';
import type { UnfinishedRun } from '../workflows/recovery/run-store.js';

export interface AppProps {
  control: ConsoleControl;
  bindings: Bindings;
  /** Where the keymap file is (or would be), for the help. */
  keymapFile: string;
  /** Runbook files of the workspace, offered in the Recovery view. */
  runbooks: string[];
  /** Recovery runs an earlier kdeck left unfinished, offered for `:resume`. */
  unfinished: UnfinishedRun[];
}

const MIN_COLUMNS = 60;
const MIN_ROWS = 12;

export function App({ control, bindings, keymapFile, runbooks, unfinished }: AppProps) {
  const state = useConsoleState(control.store);
  const size = useTerminalSize();
  const { nav, current, dispatch } = useNavigation();
  const screen = useScreen(state, nav);
  const now = () => {
    const fresh = control.store.get();
    const at = current();
    return { state: fresh, nav: at, screen: deriveScreen(fresh, at) };
  };
  // the frame stays a line short of the terminal: a full-height frame makes Ink clear the screen
  const height = size.rows - 1;
  const treeWidth = Math.min(32, Math.max(22, Math.floor(size.columns * 0.24)));
  const mainWidth = size.columns - treeWidth;
  const bodyHeight = height - 4;
  const inner = { width: mainWidth - 2, height: bodyHeight - 3 };
  const page = Math.max(1, inner.height - 2);
  const commands = useCommands(control, now, dispatch, bindings, page);
  useKeyRouter(now, dispatch, commands, bindings, page);
  // a log view open when the console ends takes its streams with it
  useEffect(() => () => current().logs?.feed.close(), [current]);
  const drill = useDrill(control.objects, nav, dispatch);
  const layout = useMemo(() => ({ wrap: nav.wrap, shift: nav.shift }), [nav.wrap, nav.shift]);
  const stackKey = screen.stack?.key;
  useEffect(() => {
    if (stackKey) control.focus(stackKey);
  }, [control, stackKey]);

  if (size.columns < MIN_COLUMNS || size.rows < MIN_ROWS) {
    return (
      <Text color={theme.warning}>
        {fit(
          `The terminal is ${size.columns}×${size.rows}; kdeck needs at least ${MIN_COLUMNS}×${MIN_ROWS}.`,
          size.columns,
        )}
      </Text>
    );
  }
  const treeFocused = nav.focus === 'tree' && nav.mode.kind === 'normal';
  const key = (id: Parameters<typeof bindings.get>[0]) => keyLabel(bindings.get(id)?.[0] ?? '?');
  const entry = screen.stack;
  const filter = nav.filters.main && nav.mode.kind !== 'filter' ? `  /${nav.filters.main}` : '';
  const viewHeight = inner.height - (filter ? 1 : 0);
  const logs = nav.logs;
  const view = (() => {
    if (nav.mode.kind === 'confirm')
      return <ConfirmView confirm={nav.mode.confirm} input={nav.mode.input} width={inner.width} />;
    if (nav.mode.kind === 'contexts')
      return <ContextPicker contexts={state.contexts} current={state.context} onPick={commands.pickContext} />;
    if (logs)
      return (
        <LogView
          logs={logs}
          kubectl={(c) => control.podTools.kubectl(c)}
          width={inner.width}
          height={viewHeight}
          keys={{
            follow: key('log.follow'),
            bottom: key('bottom'),
            back: key('back'),
            move: `${key('down')}/${key('up')}`,
          }}
          {...(nav.mode.kind === 'containers' ? { picking: nav.mode.index } : {})}
        />
      );
    if (drill.page)
      return (
        <DrillView
          page={drill.page}
          view={drill.view}
          objects={control.objects}
          filter={nav.filters.main}
          managedFieldsKey={key('yaml.managedFields')}
          width={inner.width}
          height={viewHeight}
          focused={nav.focus === 'main'}
        />
      );
    switch (nav.view) {
      case 'events':
        return (
          <EventsView
            events={filterRows(state.events, nav.filters.main, (e) => e.text)}
            scroll={nav.scroll}
            newerKeys={`${key('down')}, ${key('bottom')}`}
            width={inner.width}
            height={viewHeight}
          />
        );
      case 'recovery':
        return (
          <RecoveryView
            recovery={state.recovery}
            runbooks={runbooks}
            unfinished={unfinished}
            recoverKey={key('recover')}
            runKey={key('recovery.run')}
            rehearseKey={key('recovery.rehearse')}
            prod={screen.prod}
            scroll={nav.scroll}
            width={inner.width}
            height={viewHeight}
          />
        );
      case 'apply':
        return (
          <ApplyView
            operation={entry && state.operations.get(entry.key)}
            idle={
              entry
                ? `No apply or destroy of ${entry.key} yet: ${key('apply')} applies it, ${key('destroy')} destroys it.`
                : 'No stack.'
            }
            width={inner.width}
            height={viewHeight}
          />
        );
    }
    if (!entry) return <Text color={theme.muted}>No stack in this workspace.</Text>;
    const props = { entry, width: inner.width, height: viewHeight, focused: nav.focus === 'main' };
    switch (nav.view) {
      case 'graph':
        return <GraphView {...props} selectedId={screen.row?.id} />;
      case 'diff':
        return (
          <DiffView
            {...props}
            change={screen.change}
            scroll={nav.scroll}
            layout={layout}
            keys={{
              page: `${key('pageUp')}/${key('pageDown')}`,
              wrap: key('wrap'),
              shift: `${key('scrollLeft')} ${key('scrollRight')}`,
            }}
          />
        );
      default:
        return <ResourcesView {...props} rows={screen.rows} selected={screen.resource} />;
    }
  })();
  return (
    <Box flexDirection="column" width={size.columns} height={height}>
      <Header state={state} stack={entry} width={size.columns} />
      <Box height={bodyHeight}>
        <Pane width={treeWidth} height={bodyHeight} focused={treeFocused}>
          <PaneTitle focused={treeFocused} width={treeWidth - 2}>
            {`Stacks${nav.filters.tree ? `  /${nav.filters.tree}` : ''}`}
          </PaneTitle>
          <StackTree
            state={state}
            stacks={screen.stacks}
            selected={entry?.key}
            width={treeWidth - 2}
            height={bodyHeight - 3}
            focused={nav.focus === 'tree'}
            prod={screen.prod}
          />
        </Pane>
        <Pane width={mainWidth} height={bodyHeight} focused={!treeFocused}>
          {nav.mode.kind === 'help' ? (
            <HelpView
              lines={helpLines(
                screen.ctx,
                bindings,
                keymapFile,
                logs
                  ? [
                      { text: 'On the command line', bold: true },
                      {
                        text: `  ${logCommand(control.podTools.kubectl(logs.feed.store.get().target.context), logs.feed.store.get())}`,
                      },
                    ]
                  : [],
              )}
              scroll={nav.scroll}
              closeKey={key('back')}
              scrollKeys={`${key('down')}/${key('up')}`}
              width={inner.width}
              height={bodyHeight - 2}
            />
          ) : (
            <MainPane view={nav.view} bindings={bindings} width={inner.width} focused={!treeFocused}>
              {filter && <Text color={theme.muted}>{fit(filter, inner.width)}</Text>}
              {view}
            </MainPane>
          )}
        </Pane>
      </Box>
      <StatusLine
        mode={nav.mode}
        message={currentMessage(nav.message, state)}
        event={currentEvent(state)}
        width={size.columns}
      />
      <Footer ctx={screen.ctx} bindings={bindings} width={size.columns} />
    </Box>
  );
}
