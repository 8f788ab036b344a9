import { Data } from "effect"
import type { FieldRecord } from "./SchemaRecords.ts"

/** One refused query field, as FastAPI's 422 list words it (pydantic's `type`, `loc`, `msg`, `input`). */
export type QueryFieldRefused = FieldRecord

/** A panel form asked for something its list or report cannot be: what is wrong, field by field. */
export class QueryInvalid extends Data.TaggedError("QueryInvalid")<{
  readonly refused: ReadonlyArray<QueryFieldRefused>
}> {}
