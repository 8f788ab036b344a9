import { idempotentWith } from "@resale/webkit/Idempotent.ts"
import { markReplayed } from "../server/ResponseHeaders.ts"

/** The JSON routes' idempotency: a replayed answer says `Idempotent-Replayed: true`. */
export const idempotent = idempotentWith(markReplayed)
