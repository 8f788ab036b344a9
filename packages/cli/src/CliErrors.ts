import { Schema } from "effect"

/** The invocation itself is incomplete or wrong (exit code 2), e.g. a confirmation needed but no terminal to ask. */
export class CliUsageError extends Schema.TaggedError<CliUsageError>()("CliUsageError", {
  message: Schema.String
}) {}

/** The command ran and failed for a reason the operator must read (exit code 1). */
export class CliCommandError extends Schema.TaggedError<CliCommandError>()("CliCommandError", {
  reason: Schema.Literals(["Declined", "NotFound", "Unavailable", "Invalid"]),
  message: Schema.String
}) {}
