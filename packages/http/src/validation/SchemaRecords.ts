import { issueRecords } from "@resale/wire/SchemaRecords.ts"
import { Effect, Schema, type SchemaIssue } from "effect"
import type { ValidationErrorItem } from "../api/Errors.ts"

/**
 * A JSON body's FastAPI records, from a schema whose parts say which pydantic record they answer
 * (`refusedAs`, read by the one walker `issueRecords` in `@resale/wire/SchemaRecords.ts`): the `input`
 * is what the client sent at its place (the whole body for a missing field), in field order.
 */
const bodyRecords = (body: unknown, issue: SchemaIssue.Issue): Array<ValidationErrorItem> =>
  issueRecords(issue, "body", (path, missing) =>
    missing || path.length === 0 ? body : (body as Record<PropertyKey, unknown>)[path[0]!]
  )

/** Decodes `body` with every field checked, or fails with FastAPI's records of why not. */
export const decodeBody = <S extends Schema.Constraint>(schema: S, body: unknown) =>
  Schema.decodeUnknownEffect(schema)(body, { errors: "all" }).pipe(
    Effect.mapError((error) => bodyRecords(body, error.issue))
  )
