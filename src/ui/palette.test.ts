import { describe, expect, it } from 'vitest';
import { completions, matchStack, parseCommand } from './palette.js';

describe('the command line', () => {
  it('parses the commands with their arguments', () => {
    expect(parseCommand(':apply')).toEqual({ kind: 'apply', forceConflicts: false });
    expect(parseCommand(':apply --force-conflicts guestbook/dev')).toEqual({
      kind: 'apply',
      stack: 'guestbook/dev',
      forceConflicts: true,
    });
    expect(parseCommand(':apply --force guestbook/dev')).toHaveProperty('error');
    expect(parseCommand('destroy guestbook/dev')).toEqual({ kind: 'destroy', stack: 'guestbook/dev' });
    expect(parseCommand(':recover runbooks/AppRecovery.k hosts=a-node-1,b-node-2')).toEqual({
      kind: 'recover',
      runbook: 'runbooks/AppRecovery.k',
      args: ['hosts=a-node-1,b-node-2'],
    });
    expect(parseCommand(':recover runbooks/AppRecovery.k -D hosts=a')).toEqual({
      kind: 'recover',
      runbook: 'runbooks/AppRecovery.k',
      args: ['hosts=a'],
    });
    expect(parseCommand(':resume 20261122-071500-app-recovery-1a2b')).toEqual({
      kind: 'resume',
      runId: '20261122-071500-app-recovery-1a2b',
    });
    expect(parseCommand(':ctx sandbox-b')).toEqual({ kind: 'ctx', name: 'sandbox-b' });
    expect(parseCommand(':stack prod')).toEqual({ kind: 'stack', name: 'prod' });
    expect(parseCommand(':view graph')).toEqual({ kind: 'view', view: 'graph' });
    expect(parseCommand(':q')).toEqual({ kind: 'quit' });
    expect(parseCommand(':quit')).toEqual({ kind: 'quit' });
  });

  it('says what is wrong with a line it cannot use', () => {
    expect(parseCommand(':aply')).toEqual({ error: "unknown command 'aply' — did you mean :apply?" });
    expect(parseCommand(':zzz')).toEqual({
      error: expect.stringMatching(/^unknown command 'zzz'; the commands are :apply, :destroy, /),
    });
    expect(parseCommand(':recover')).toEqual({
      error: 'usage: :recover RUNBOOK hosts=a,b (for example :recover runbooks/AppRecovery.k hosts=web-1,web-2)',
    });
    expect(parseCommand(':recover r.k hosts')).toEqual({
      error: 'hosts is not key=value; usage: :recover RUNBOOK hosts=a,b',
    });
    expect(parseCommand(':resume')).toEqual({
      error: 'usage: :resume RUN_ID (the Recovery view lists the unfinished runs)',
    });
    expect(parseCommand(':view nope')).toEqual({
      error: 'usage: :view NAME; the views are resources, graph, diff, apply, recovery, events',
    });
  });

  it('completes command words and matches stacks by a part of their name', () => {
    expect(completions('re')).toEqual(['recover', 'rehearse', 'resume', 'refresh']);
    expect(completions('apply x')).toEqual([]);
    const keys = ['guestbook/dev', 'guestbook/prod', 'nginx-example/prod'];
    expect(matchStack('guestbook/prod', keys)).toBe('guestbook/prod');
    expect(matchStack('nginx', keys)).toBe('nginx-example/prod');
    expect(matchStack('prod', keys)).toEqual({ error: 'prod matches guestbook/prod, nginx-example/prod; say which' });
  });
});
