import type { UserId } from "@resale/core"
import { type DomainError, domainAnswer } from "@resale/webkit/DomainErrors.ts"
import { checkFields, fieldsOf } from "@resale/webkit/PydanticFields.ts"
import { Data, Effect, Option, Schema } from "effect"
import type { HttpServerRequest } from "effect/http"
import type { CookieToSet } from "@resale/webkit/WebSessions.ts"
import type { MessageKey } from "../i18n/en.ts"
import { MONEY_PARAM, type Params } from "../i18n/Translate.ts"
import { codeLines, refusedLines } from "./ErrorText.ts"
import type { Flash, FlashLine } from "./WebCookies.ts"

/**
 * The web's form posts as a table: each entry names its path, the schema of its fields (the JSON
 * contract's own, so both refuse the same input alike), who may post it, the core call it makes and
 * where the browser goes after it, with which message. A failure is said in words by its domain
 * error's code (`@resale/webkit/DomainErrors.ts`): a form whose call can fail with an error that
 * table does not answer fails the type check at `form(...)`.
 */
export interface FormOutcome {
  /** Page after success. */
  readonly next: string
  readonly flash?: Flash
  /** A new API key to show once on the next page (the rotation's). */
  readonly newKey?: string
  /** A session cookie to set (signing in). */
  readonly cookie?: CookieToSet
}

/** Who may post a form: a signed-in shopper, or an operator (the panel), from our own pages; or anyone (signing in). */
export type Who = "user" | "operator" | "anyone"

/** What the call of a form gets: the path's match, the decoded fields and who posts them. */
export interface FormInput<P, F, W extends Who> {
  readonly match: RegExpExecArray
  /** The path's numbers (the pattern's named groups), decoded. */
  readonly params: P
  readonly fields: F
  /** The signed-in shopper (forms of `who: "user"`). */
  readonly userId: W extends "user" ? UserId : undefined
  /** The `idempotency_key` the form carried, when it is a valid one. */
  readonly idempotencyKey: string | undefined
  /** The files the form carried, by field name. */
  readonly files: ReadonlyMap<string, File>
  readonly host: string
  readonly request: HttpServerRequest.HttpServerRequest
}

/** A refusal the form itself says (a missing file, a mode the server is not in). */
export class FormRefused extends Data.TaggedError("FormRefused")<{ readonly lines: ReadonlyArray<FlashLine> }> {}

interface FormSpec<P, F, A, E, R, W extends Who, C> {
  readonly pattern: RegExp
  /** Where the browser returns when the form failed and no same-site Referer says better. */
  readonly back: (m: RegExpExecArray) => string
  readonly who: W
  readonly fields: Schema.Codec<F, unknown, never, never>
  /** The path's numbers, checked before anything else (a 0 is refused as the route refuses it). */
  readonly params: Schema.Codec<P, unknown, never, never>
  /**
   * A check before the session's, of the posted text as it came (a route of sandbox mode only is not
   * found elsewhere; the panel's money forms answer a wrong path or form before a missing session).
   */
  readonly before?: (raw: RawForm) => Effect.Effect<C, E, R>
  readonly run: (input: FormInput<P, F, W> & { readonly checked: C }) => Effect.Effect<A, E, R>
  readonly success: (m: RegExpExecArray, answer: A) => FormOutcome
}

/** A form as it was posted: the path's groups, the text fields, the idempotency key as the route's header. */
export interface RawForm {
  readonly params: Readonly<Record<string, string | undefined>>
  readonly form: Readonly<Record<string, string>>
  readonly headers: Readonly<Record<string, string | undefined>>
}

/** The result of a form post, for the gateway to answer. */
export type FormResult =
  | { readonly _tag: "Done"; readonly outcome: FormOutcome }
  | { readonly _tag: "Refused"; readonly lines: ReadonlyArray<FlashLine> }
  | { readonly _tag: "SignIn" }

export interface FormContext {
  readonly user: Effect.Effect<Option.Option<UserId>>
  readonly operator: Effect.Effect<boolean>
  /** Whether the post comes from our own site (Origin / Referer). */
  readonly sameSite: boolean
  readonly idempotencyKey: string | undefined
  readonly files: ReadonlyMap<string, File>
  readonly host: string
  readonly request: HttpServerRequest.HttpServerRequest
}

export interface Form<R> {
  readonly pattern: RegExp
  readonly back: (m: RegExpExecArray) => string
  /** Where a success leads, with which message (`answer`: what the form's call answered). */
  readonly success: (m: RegExpExecArray, answer: never) => FormOutcome
  readonly post: (
    m: RegExpExecArray,
    posted: Readonly<Record<string, string>>,
    context: FormContext
  ) => Effect.Effect<FormResult, never, R>
}

const refused = (lines: ReadonlyArray<FlashLine>): FormResult => ({ _tag: "Refused", lines })

/** pydantic's checks of the posted text (the route's 422 list), then the schema's decoding. */
const decode = <F>(schema: Schema.Codec<F, unknown, never, never>, where: "body" | "path", input: object) => {
  const checked = checkFields(where, fieldsOf(schema), input as Record<string, unknown>, "text")
  if (checked.errors.length > 0) return Effect.fail(refusedLines(checked.errors))
  return Schema.decodeUnknownEffect(Schema.toCodecArrayFromSingle(Schema.toCodecStringTree(schema)))(
    checked.values
  ).pipe(Effect.mapError(() => codeLines("validation_error")))
}

/** An entry of the table; `E` must be errors `DomainErrors.ts` answers (or the form's own refusal). */
export const form = <P, F, A, E extends DomainError | FormRefused, R, W extends Who = "user", C = void>(
  spec: FormSpec<P, F, A, E, R, W, C>
): Form<R> => ({
  pattern: spec.pattern,
  back: spec.back,
  success: spec.success,
  post: (m, posted, context) =>
    Effect.gen(function* () {
      const params = yield* decode(spec.params, "path", { ...m.groups })
      const fields = yield* decode(spec.fields, "body", posted)
      const raw = { params: { ...m.groups }, form: posted, headers: { "idempotency-key": context.idempotencyKey } }
      const checked = (spec.before === undefined ? undefined : yield* spec.before(raw)) as C
      const userId = spec.who === "user" ? Option.getOrUndefined(yield* context.user) : undefined
      if (spec.who !== "anyone") {
        const signedIn = spec.who === "user" ? userId !== undefined : yield* context.operator
        if (!signedIn) return { _tag: "SignIn" } as const
        if (!context.sameSite) return refused(codeLines("cross_site_refused"))
      }
      const answer = yield* spec.run({
        match: m,
        checked,
        params,
        fields,
        userId: userId as FormInput<P, F, W>["userId"],
        idempotencyKey: context.idempotencyKey,
        files: context.files,
        host: context.host,
        request: context.request
      })
      return { _tag: "Done", outcome: spec.success(m, answer) } as const
    }).pipe(
      Effect.catch((error: ReadonlyArray<FlashLine> | E | FormRefused) =>
        Effect.succeed(
          Array.isArray(error)
            ? refused(error)
            : error instanceof FormRefused
              ? refused(error.lines)
              : refused(linesOf(error as DomainError))
        )
      )
    )
})

const linesOf = (error: DomainError): ReadonlyArray<FlashLine> => {
  const answer = domainAnswer(error)!
  return codeLines(answer.code, answer.params)
}

/** The params of a path without numbers. */
export const NoParams = Schema.Struct({})

/** An amount in a message: drawn in the reader's words when the page renders it. */
export const money = (n: number) => `${MONEY_PARAM}${n}`

/** A success message. */
export const ok = (key: MessageKey, params?: Params): Flash => ({
  kind: "ok",
  lines: [params ? { key, params } : { key }]
})
