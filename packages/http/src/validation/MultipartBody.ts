import type { Context } from "effect"
import { Effect, FileSystem } from "effect"
import { type HttpServerRequest, Multipart } from "effect/http"
import type { ReceiptLimits } from "@resale/webkit/ReceiptLimits.ts"
import { BadRequest, PayloadTooLarge } from "../api/Errors.ts"

/**
 * How a multipart body is read: the contract's one file route is the receipt upload, so its parts are
 * bounded by `ReceiptLimits` (built on the top-up settings when the validator's layer is built).
 */
export interface MultipartBounds {
  /** The parser's limits: a part's size there counts its headers too, so it gets `PART_HEADERS` more. */
  readonly parser: Context.Context<never>
  /** The exact bound of each file's own bytes, checked once it is stored. */
  readonly file: number
}

/** Room for a part's headers (its name, file name and type) above the file's own limit. */
const PART_HEADERS = 4 * 1024

export const multipartBounds = (limits: ReceiptLimits): MultipartBounds => ({
  parser: Multipart.limitsServices({ maxFileSize: limits.file + PART_HEADERS, maxTotalSize: limits.parts }),
  file: limits.file
})

export const bodyTooLarge = new PayloadTooLarge({
  detail: "The request body is larger than this route accepts",
  code: "payload_too_large"
})
const fileTooLarge = new BadRequest({ detail: "File too large", code: "payload_too_large" })

/** The parts of a multipart body, stored; a file over the bound is a 400, a body over the limit a 413. */
export const readMultipart = (request: HttpServerRequest.HttpServerRequest, bounds: MultipartBounds) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const persisted = yield* request.multipart.pipe(
      Effect.provideContext(bounds.parser),
      Effect.catchTag("MultipartError", (error) =>
        error.reason._tag === "BodyTooLarge"
          ? Effect.fail(bodyTooLarge)
          : error.reason._tag === "FileTooLarge"
            ? Effect.fail(fileTooLarge)
            : Effect.fail(new BadRequest({ detail: "There was an error parsing the body", code: "body_unreadable" }))
      )
    )
    for (const value of Object.values(persisted)) {
      if (typeof value === "string") continue
      for (const file of value.filter(Multipart.isPersistedFile)) {
        const { size } = yield* fs.stat(file.path).pipe(Effect.orDie)
        if (Number(size) > bounds.file) return yield* Effect.fail(fileTooLarge)
      }
    }
    return persisted
  })
