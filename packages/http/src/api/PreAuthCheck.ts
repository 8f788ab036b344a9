import { Context, type Effect } from "effect"
import { HttpApiMiddleware } from "effect/http-api"
import { HTTPValidationError, NotFound } from "./Errors.ts"

/** What a check before sign-in reads: the path's parameters and the headers, as sent (the body is the validator's). */
export interface PreAuthInput {
  readonly params: Readonly<Record<string, string | undefined>>
  readonly headers: Readonly<Record<string, string | undefined>>
}

/**
 * The check an endpoint makes of its input before anyone's credentials are looked at (annotate the
 * endpoint with it), after the request validator has checked the declared input: the balance
 * correction answers a 404 for a path that names no user and its key's 422 before a 401.
 */
export const CheckBeforeAuth = Context.Reference<
  ((input: PreAuthInput) => Effect.Effect<void, HTTPValidationError | NotFound>) | undefined
>("http/api/CheckBeforeAuth", { defaultValue: () => undefined })

/** Runs the endpoint's `CheckBeforeAuth`; added to a group after its session middleware, so it wraps it. */
export class PreAuthCheck extends HttpApiMiddleware.Service<PreAuthCheck>()("http/api/PreAuthCheck", {
  error: [HTTPValidationError, NotFound]
}) {}
