import { Data } from "effect"

/** One refused query field, as FastAPI's 422 list words it (pydantic's `type`, `loc`, `msg`, `input`). */
export interface QueryFieldRefused {
  readonly type: string
  readonly loc: readonly ["query", string]
  readonly msg: string
  readonly input: string
}

/** A panel form asked for something its list or report cannot be: what is wrong, field by field. */
export class QueryInvalid extends Data.TaggedError("QueryInvalid")<{
  readonly refused: ReadonlyArray<QueryFieldRefused>
}> {}
