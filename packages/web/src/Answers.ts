import { HttpServerResponse } from "effect/http"

/** A JSON answer (the asset routes' 404 and push key), as the /v2 routes answer. */
export const json = (body: unknown, status = 200) => HttpServerResponse.jsonUnsafe(body, { status })
