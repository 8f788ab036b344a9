import { Effect, FileSystem, Layer, Path } from "effect"
import { TopupSettings } from "@resale/core/topups/TopupSettings.ts"
import { receiptLimits } from "@resale/webkit/ReceiptLimits.ts"
import type { Schema } from "effect"
import { HttpRouter, HttpServerRequest } from "effect/http"
import type { HttpApiEndpoint } from "effect/http-api"
import { HTTPValidationError, type ValidationErrorItem } from "../api/Errors.ts"
import { RequestValidation } from "../api/Middleware.ts"
import type { FieldKind } from "@resale/webkit/Fields.ts"
import { jsonTooDeep, MAX_JSON_DEPTH } from "./JsonDepth.ts"
import { bodyTooLarge, type MultipartBounds, multipartBounds, readMultipart } from "./MultipartBody.ts"
import { checkFields, type FieldSpec, fieldsOf, kindFromAst } from "@resale/webkit/PydanticFields.ts"

type BodyKind = "json" | "form" | "multipart"

interface Plan {
  readonly params: ReadonlyArray<FieldSpec>
  readonly query: ReadonlyArray<FieldSpec>
  readonly headers: ReadonlyArray<FieldSpec>
  readonly body:
    | {
        readonly kind: BodyKind
        readonly contentType: string
        readonly fields: ReadonlyArray<FieldSpec>
        /** A model (struct) body, as opposed to a free JSON value. */
        readonly isModel: boolean
        /** The kind of a non-model body (a free JSON object or any JSON value). */
        readonly valueKind: FieldKind
      }
    | undefined
  readonly trivial: boolean
}

const plans = new WeakMap<object, Plan>()

const planFor = (endpoint: HttpApiEndpoint.Top): Plan => {
  const cached = plans.get(endpoint)
  if (cached) return cached
  const params = fieldsOf(endpoint.params)
  const query = fieldsOf(endpoint.query)
  const headers = fieldsOf(endpoint.headers)
  let body: Plan["body"]
  for (const [contentType, entry] of endpoint.payload) {
    const encoding = entry.encoding
    const schema = entry.schemas[0] as Schema.Top
    const kind: BodyKind | undefined =
      encoding._tag === "Json"
        ? "json"
        : encoding._tag === "FormUrlEncoded"
          ? "form"
          : encoding._tag === "Multipart"
            ? "multipart"
            : undefined
    if (kind === undefined) continue
    const fields = fieldsOf(schema)
    body = {
      kind,
      contentType,
      fields,
      isModel:
        fields.length > 0 || (schema.ast._tag === "Objects" && !["object", "any"].includes(kindFromAst(schema.ast))),
      valueKind: kindFromAst(schema.ast)
    }
  }
  const plan: Plan = {
    params,
    query,
    headers,
    body,
    trivial: !params.length && !query.length && !headers.length && !body
  }
  plans.set(endpoint, plan)
  return plan
}

const mediaType = (header: string | undefined) => (header ?? "").split(";")[0]!.trim().toLowerCase()
const isJsonType = (type: string) =>
  type === "application/json" || (type.startsWith("application/") && type.endsWith("+json"))

/** Python's json error position, taken from V8's message when it names one. */
const jsonErrorPosition = (text: string, error: unknown): number => {
  const match = /position (\d+)/.exec(String((error as Error)?.message ?? ""))
  return match ? Number(match[1]) : text.length
}

interface BodyResult {
  readonly errors: Array<ValidationErrorItem>
  /** Replacement body in the endpoint's declared encoding, when the request must be rebuilt. */
  readonly rebuild?: { readonly contentType: string; readonly body: string }
}

const formBody = (values: Record<string, unknown>) => {
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(values)) {
    if (typeof value === "string") params.append(key, value)
  }
  return params.toString()
}

const isBodyTooLarge = (error: { readonly reason: { readonly _tag: string; readonly reason?: string } }) =>
  error.reason._tag === "RequestParseError" && error.reason.reason === "BodyTooLarge"

/** The body as text; past the server's body limit a 413, any other read failure an empty body. */
const bodyText = (request: HttpServerRequest.HttpServerRequest) =>
  request.text.pipe(Effect.catch((error) => (isBodyTooLarge(error) ? Effect.fail(bodyTooLarge) : Effect.succeed(""))))

const checkBody = Effect.fnUntraced(function* (
  plan: NonNullable<Plan["body"]>,
  request: HttpServerRequest.HttpServerRequest,
  multipart: MultipartBounds
) {
  const type = mediaType(request.headers["content-type"])
  if (plan.kind === "json") {
    const text = yield* bodyText(request)
    if (text === "") {
      return { errors: [{ type: "missing", loc: ["body"], msg: "Field required", input: null }] } as BodyResult
    }
    if (type !== "" && !isJsonType(type)) {
      // FastAPI hands a non-JSON body to pydantic as bytes.
      return {
        errors: [
          {
            type: plan.isModel ? "model_attributes_type" : "dict_type",
            loc: ["body"],
            msg: plan.isModel
              ? "Input should be a valid dictionary or object to extract fields from"
              : "Input should be a valid dictionary",
            input: text
          }
        ]
      } as BodyResult
    }
    if (jsonTooDeep(text)) {
      return {
        errors: [
          { type: "json_too_deep", loc: ["body"], msg: `JSON nested deeper than ${MAX_JSON_DEPTH} levels`, input: null }
        ]
      } as BodyResult
    }
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch (error) {
      return {
        errors: [
          {
            type: "json_invalid",
            loc: ["body", jsonErrorPosition(text, error)],
            msg: "JSON decode error",
            input: {},
            ctx: { error: "Expecting value" }
          }
        ]
      } as BodyResult
    }
    if (!plan.isModel) {
      const result = checkFields(
        "body",
        [{ name: "body", kind: plan.valueKind, required: true, nullable: false }],
        { body: parsed },
        "json"
      )
      return { errors: result.errors.map((e) => ({ ...e, loc: ["body"] })) } as BodyResult
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      return {
        errors: [
          {
            type: "model_attributes_type",
            loc: ["body"],
            msg: "Input should be a valid dictionary or object to extract fields from",
            input: parsed
          }
        ]
      } as BodyResult
    }
    const result = checkFields("body", plan.fields, parsed as Record<string, unknown>, "json", parsed)
    return result.changed || type === ""
      ? { errors: result.errors, rebuild: { contentType: plan.contentType, body: JSON.stringify(result.values) } }
      : { errors: result.errors }
  }
  // Form and multipart bodies: Starlette parses either encoding and gives an empty form otherwise.
  let input: Record<string, unknown> = {}
  if (type === "application/x-www-form-urlencoded") {
    const params = yield* request.urlParamsBody.pipe(
      Effect.catch((error) =>
        isBodyTooLarge(error)
          ? Effect.fail(bodyTooLarge)
          : Effect.succeed([] as ReadonlyArray<readonly [string, string]>)
      )
    )
    for (const [key, value] of params) input[key] = value
  } else if (type === "multipart/form-data") {
    const persisted = yield* readMultipart(request, multipart)
    input = { ...persisted }
  }
  const result = checkFields("body", plan.fields, input, "text")
  const mismatch = type !== plan.contentType
  if (plan.kind === "multipart") return { errors: result.errors } as BodyResult
  return result.changed || mismatch
    ? { errors: result.errors, rebuild: { contentType: plan.contentType, body: formBody(result.values) } }
    : { errors: result.errors }
})

/**
 * The echoed `input` as plain JSON: a JSON number too large for a double (`1e400`) parses as
 * Infinity, which no JSON answer can carry; it is echoed as null (JSON.stringify's own rule).
 */
const jsonSafeInput = (error: ValidationErrorItem): ValidationErrorItem =>
  error.input === undefined ? error : { ...error, input: JSON.parse(JSON.stringify(error.input) ?? "null") }

const rebuildRequest = (request: HttpServerRequest.HttpServerRequest, contentType: string, body: string) => {
  const headers = new Headers()
  for (const [key, value] of Object.entries(request.headers)) {
    if (key !== "content-type" && key !== "content-length") headers.set(key, value)
  }
  headers.set("content-type", contentType)
  const rebuilt = HttpServerRequest.fromWeb(
    new Request(new URL(request.url, "http://localhost"), { method: request.method, headers, body })
  )
  return rebuilt.modify({ remoteAddress: request.remoteAddress })
}

/** The RequestValidation middleware: every slot is checked, then the coerced values are handed on. */
export const RequestValidatorLayer = Layer.effect(RequestValidation)(
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const multipart = multipartBounds(receiptLimits(yield* TopupSettings))
    return (httpEffect, { endpoint }) => {
      const plan = planFor(endpoint)
      if (plan.trivial) return httpEffect
      return Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const route = yield* HttpRouter.RouteContext
        const query = yield* HttpServerRequest.ParsedSearchParams
        const params = checkFields("path", plan.params, route.params, "text")
        const search = checkFields("query", plan.query, query, "text")
        const headers = checkFields("header", plan.headers, request.headers, "text")
        const body = plan.body
          ? yield* checkBody(plan.body, request, multipart).pipe(
              Effect.provideService(FileSystem.FileSystem, fs),
              Effect.provideService(Path.Path, path)
            )
          : ({ errors: [] } as BodyResult)
        const errors = [...params.errors, ...search.errors, ...headers.errors, ...body.errors]
        if (errors.length > 0) return yield* new HTTPValidationError({ detail: errors.map(jsonSafeInput) })
        let effect = httpEffect
        if (params.changed) {
          effect = Effect.provideService(effect, HttpRouter.RouteContext, {
            ...route,
            params: params.values as Record<string, string>
          })
        }
        if (search.changed) {
          effect = Effect.provideService(
            effect,
            HttpServerRequest.ParsedSearchParams,
            search.values as Record<string, string>
          )
        }
        if (body.rebuild) {
          effect = Effect.provideService(
            effect,
            HttpServerRequest.HttpServerRequest,
            rebuildRequest(request, body.rebuild.contentType, body.rebuild.body)
          )
        }
        return yield* effect
      })
    }
  })
)
