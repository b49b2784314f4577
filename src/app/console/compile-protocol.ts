/**
 * What the console's compile worker is asked and answers. Everything here crosses a thread by
 * structured clone, so it is plain data: the Spec, the inputs, and a failure already turned
 * into text.
 */
import type { StackInputs } from '../../konfig/stack-inputs.js';
import type { Spec } from '../../model/resource.js';

/** How the console compiles, given to its worker once (as workerData). */
export interface CompileSettings {
  /** `--read-only`: the program writes no file, and no parse is kept on disk (kcl/ast-cache.ts). */
  readOnly: boolean;
}

export interface CompileRequest {
  id: number;
  /** The stack folder. */
  dir: string;
}

export interface CompileFailure {
  /** One line for the header: `main.k:12:5 expected int, got str`. */
  summary: string;
  /** The diagnostic as kcl prints it, with the source line and a caret. */
  text: string;
}

export type CompileOutcome = ({ ok: true; spec: Spec } | { ok: false; failure: CompileFailure }) & {
  /** Milliseconds the compile took in the worker. */
  ms: number;
  inputs: StackInputs;
};

export type CompileReply = CompileOutcome & { id: number };
