import { Effect } from "effect"
import type { QueryInvalid } from "@resale/wire/QueryInvalid.ts"
import { HTTPValidationError } from "../api/Errors.ts"

/** A panel filter the wire refused (`QueryInvalid`), answered as FastAPI's 422 list. */
export const refusedAs422 = <A, R>(self: Effect.Effect<A, QueryInvalid, R>): Effect.Effect<A, HTTPValidationError, R> =>
  Effect.mapError(self, (e) => new HTTPValidationError({ detail: e.refused }))
