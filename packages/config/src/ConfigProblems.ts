import { Runtime, Schema } from "effect"

/**
 * Why a process refused to start: every bad or missing setting at once, one line each naming the
 * variable and what is expected. Its `report` is what the entry prints (no stack trace: the runtime
 * is told the error is reported, and the exit code is 1).
 */
export class ConfigProblems extends Schema.TaggedError<ConfigProblems>()("ConfigProblems", {
  /** e.g. "production mode (SANDBOX=false)" */
  mode: Schema.String,
  problems: Schema.Array(Schema.String)
}) {
  override readonly [Runtime.errorReported] = false
  override readonly [Runtime.errorExitCode] = 1

  get report(): string {
    const count = this.problems.length === 1 ? "1 problem" : `${this.problems.length} problems`
    return [
      `resale cannot start: the configuration has ${count} (${this.mode}):`,
      ...this.problems.map((p) => `  ${p}`)
    ].join("\n")
  }
}
