/**
 * What must be said before a change runs, the same on both faces: a change that touches a
 * production context needs that context's name typed out (or, without a terminal, given with
 * `--confirm CONTEXT[,CONTEXT…]`); `--yes` alone never approves production. Any other change
 * needs a yes: `y` at a prompt, or `--yes`.
 */
import { UserError } from '../../diagnostics/user-error.js';
import type { ProductionPolicy } from './production.js';

export interface Approval {
  /** The production contexts the change touches, sorted; empty when it touches none. */
  production: string[];
}

export function approvalFor(touched: Iterable<string>, policy: ProductionPolicy): Approval {
  return { production: policy.among(touched) };
}

/** The names a person types (or gives to --confirm): commas or spaces between them, in any order. */
function namesIn(text: string): Set<string> {
  return new Set(text.split(/[\s,]+/).filter(Boolean));
}

/** Whether a typed answer names every production context the change touches. */
export function typedApproves(approval: Approval, answer: string): boolean {
  const given = namesIn(answer);
  return approval.production.length > 0 && approval.production.every((c) => given.has(c));
}

/** What to type, as the prompt shows it. */
export const typedText = (approval: Approval): string => approval.production.join(',');

export interface ApprovalFlags {
  yes?: boolean;
  /** `--confirm`: the production contexts named on the command line. */
  confirm?: string;
}

/** How the command line's flags settle an approval: approved, to be asked on a terminal, or refused. */
export type FlagVerdict = { kind: 'approved' } | { kind: 'ask'; typed: boolean } | { kind: 'refused'; reason: string };

/**
 * The flags' verdict. `what` names the change for the refusal (`the apply`, `the run`);
 * `interactive` says whether a person can be asked.
 */
export function flagVerdict(approval: Approval, flags: ApprovalFlags, interactive: boolean, what: string): FlagVerdict {
  if (approval.production.length) {
    if (flags.confirm !== undefined && typedApproves(approval, flags.confirm)) return { kind: 'approved' };
    if (interactive) return { kind: 'ask', typed: true };
    const named = flags.confirm ? ` (--confirm ${flags.confirm} does not name them all)` : '';
    return {
      kind: 'refused',
      reason: `${what} touches production (${approval.production.join(', ')})${named}; --yes alone is not enough: confirm by name with --confirm ${typedText(approval)}`,
    };
  }
  if (flags.yes) return { kind: 'approved' };
  if (interactive) return { kind: 'ask', typed: false };
  return {
    kind: 'refused',
    reason: `${what} needs a confirmation and there is no terminal to ask on; review it first, then pass --yes`,
  };
}

/** Throws the refusal of a verdict as a usage error (exit 2): nothing was changed. */
export function refuseUnlessAllowed(
  verdict: FlagVerdict,
): asserts verdict is Exclude<FlagVerdict, { kind: 'refused' }> {
  if (verdict.kind === 'refused') throw new UserError(`${verdict.reason}. Nothing was changed.`, 2);
}
