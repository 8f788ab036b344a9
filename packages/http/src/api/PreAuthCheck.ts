import { Context, type Effect } from "effect"
import { HttpApiMiddleware } from "effect/http-api"
import type { RawInput } from "@resale/webkit/PanelFormInput.ts"
import { HTTPValidationError, NotFound } from "./Errors.ts"

export type { RawInput }

/**
 * The check an endpoint makes of its input before anyone's credentials are looked at (annotate the
 * endpoint with it): the panel's money-moving forms answer a 404 for a path that names no record and
 * their own 422 list before a 401, as they always have.
 */
export const CheckBeforeAuth = Context.Reference<
  ((input: RawInput) => Effect.Effect<void, HTTPValidationError | NotFound>) | undefined
>("http/api/CheckBeforeAuth", { defaultValue: () => undefined })

/** Runs the endpoint's `CheckBeforeAuth`; added to a group after its session middleware, so it wraps it. */
export class PreAuthCheck extends HttpApiMiddleware.Service<PreAuthCheck>()("http/api/PreAuthCheck", {
  error: [HTTPValidationError, NotFound]
}) {}
