import { assert, layer } from "@effect/vitest"
import { Context, Effect } from "effect"
import { OpenApi } from "effect/http-api"
import { Api } from "../src/api/Api.ts"
import { AdminTokenAuth, ApiKeyAuth, OperatorSession, UserSession } from "../src/api/Middleware.ts"
import { OPERATIONS } from "../src/api/OperationDocs.ts"
import { call } from "./Client.ts"
import { pgTestServer, TestServer } from "./TestServer.ts"

type Json = Record<string, any>

/** Request and response bodies without an example: its media type's, or its (referenced) schema's. */
const withoutExamples = (doc: Json): Array<string> =>
  Object.entries<Json>(doc["paths"]).flatMap(([path, ops]) =>
    Object.entries<Json>(ops).flatMap(([method, op]) => {
      const bodies: Array<[string, Json]> = [
        ...Object.entries<Json>(op["requestBody"]?.["content"] ?? {}).map(([type, media]): [string, Json] => [
          `request ${type}`,
          media
        ]),
        ...Object.entries<Json>(op["responses"] ?? {}).flatMap(([status, response]) =>
          Object.entries<Json>(response["content"] ?? {}).map(([type, media]): [string, Json] => [
            `${status} ${type}`,
            media
          ])
        )
      ]
      return bodies
        .filter(([, media]) => {
          if (media["example"] !== undefined || media["examples"] !== undefined) return false
          const ref: string | undefined = media["schema"]?.["$ref"]
          const schema: Json =
            ref === undefined ? (media["schema"] ?? {}) : (doc["components"]["schemas"][ref.split("/").pop()!] ?? {})
          return schema["examples"] === undefined
        })
        .map(([body]) => `${method} ${path} ${body}`)
    })
  )

/** The served /v2/openapi.json says what a generated client needs (the linter runs in `npm test`). */
layer(pgTestServer(), { timeout: "60 seconds", excludeTestServices: true })("the OpenAPI contract", (it) => {
  const served = Effect.gen(function* () {
    const { url } = yield* TestServer
    return (yield* call(url, "/v2/openapi.json")).json as Json
  })
  const operations = (doc: Json) =>
    Object.entries<Json>(doc["paths"]).flatMap(([path, ops]) =>
      Object.entries<Json>(ops).map(([method, op]) => ({ path, method, op }))
    )

  it.effect("security schemes, and each operation's requirement instead of optional credential headers", () =>
    Effect.gen(function* () {
      const doc = yield* served
      assert.deepStrictEqual(Object.keys(doc["components"]["securitySchemes"]).sort(), [
        "adminToken",
        "apiKey",
        "operatorSession",
        "userSession"
      ])
      const security = (path: string, method: string) => doc["paths"][path][method]["security"]
      assert.deepStrictEqual(security("/v2/api/stars/buy", "post"), [{ apiKey: [] }])
      assert.deepStrictEqual(security("/v2/api/orders", "get"), [{ apiKey: [] }])
      assert.deepStrictEqual(security("/v2/api/admin/payments/incoming", "post"), [{ adminToken: [] }])
      assert.deepStrictEqual(security("/v2/balance/top-up", "post"), [{ userSession: [] }])
      assert.deepStrictEqual(security("/v2/api/pricing", "get"), [])
      for (const { op, path } of operations(doc)) {
        for (const parameter of op["parameters"] ?? []) {
          assert.notInclude(["x-api-key", "x-admin-token"], parameter["name"], path)
        }
      }
    })
  )

  it.effect("an operation declares a credential scheme exactly when its route runs behind that check, both ways", () =>
    Effect.gen(function* () {
      const doc = yield* served
      // Independent of the transform: the route table's middleware, by scheme.
      const checks = [
        [ApiKeyAuth, "apiKey"],
        [AdminTokenAuth, "adminToken"],
        [UserSession, "userSession"],
        [OperatorSession, "operatorSession"]
      ] as const
      const required = new Map<string, Array<string>>()
      // The operator panel's own JSON routes are kept out of the document on purpose (OpenApi.Exclude).
      for (const group of Object.values(Api.groups).filter((g) => !Context.get(g.annotations, OpenApi.Exclude)))
        for (const endpoint of Object.values(group.endpoints)) {
          // The web UI's own routes (OpenApi.Exclude) are not in the served document on purpose.
          if (Context.get(group.annotations, OpenApi.Exclude) || Context.get(endpoint.annotations, OpenApi.Exclude))
            continue
          const key = `${endpoint.method.toLowerCase()} ${endpoint.path.replace(/:(\w+)/g, "{$1}")}`
          const schemes = checks.filter(([m]) => endpoint.middlewares.has(m)).map(([, s]) => s)
          required.set(key, schemes)
        }
      const declared = new Map<string, Array<string>>()
      for (const { method, op, path } of operations(doc))
        declared.set(
          `${method} ${path}`,
          (op["security"] as Array<Json>).flatMap((r) => Object.keys(r))
        )
      const mismatches: Array<string> = []
      for (const [key, schemes] of required) {
        const said = declared.get(key)
        if (said === undefined) mismatches.push(`${key}: not in the document`)
        else if (schemes.some((s) => !said.includes(s)))
          mismatches.push(`${key}: required ${schemes}, declared ${said}`)
      }
      for (const [key, said] of declared) {
        if (key === "get /healthz") continue // not an HttpApi route; open
        const schemes = required.get(key)
        if (schemes === undefined) mismatches.push(`${key}: not in the route table`)
        else if (said.some((s) => !schemes.includes(s)))
          mismatches.push(`${key}: declared ${said}, required ${schemes}`)
      }
      assert.deepStrictEqual(mismatches, [])
      assert.deepStrictEqual(doc["paths"]["/healthz"]["get"]["security"], [])
      // The six webhook operations are behind the key, so a generated client sends it.
      const webhooks = [...required].filter(([key]) => key.includes("/v2/api/webhooks"))
      assert.strictEqual(webhooks.length, 6)
      for (const [key] of webhooks) assert.deepStrictEqual(declared.get(key), ["apiKey"], key)
    })
  )

  it.effect("every operation has a summary; ids are integers of at least 1; limits and closed sets are stated", () =>
    Effect.gen(function* () {
      const doc = yield* served
      for (const { method, op, path } of operations(doc)) {
        assert.isString(op["summary"], `${method} ${path}`)
        if (op["operationId"] !== "health.healthz") assert.isDefined(OPERATIONS[op["operationId"]], op["operationId"])
      }
      const orderId = doc["paths"]["/v2/api/orders/{order_id}"]["get"]["parameters"].find(
        (p: Json) => p["name"] === "order_id"
      )
      assert.deepStrictEqual(orderId["schema"], { type: "integer", minimum: 1 })
      for (const list of ["/v2/api/orders", "/v2/api/topups"]) {
        const limit = doc["paths"][list]["get"]["parameters"].find((p: Json) => p["name"] === "limit")
        assert.deepInclude(limit["schema"], { type: "integer", minimum: 1, maximum: 100, default: 20 }, list)
      }
      const schemas = doc["components"]["schemas"]
      assert.deepInclude(schemas["StarsOrderRequest"]["properties"]["amount"], {
        type: "integer",
        minimum: 50,
        maximum: 1_000_000
      })
      assert.deepStrictEqual(schemas["PremiumOrderRequest"]["properties"]["duration"]["enum"], [3, 6, 12])
      assert.deepStrictEqual(schemas["Order"]["properties"]["order_id"], { type: "integer", minimum: 1 })
      assert.includeMembers(schemas["Order"]["properties"]["status"]["enum"], ["queued", "completed", "failed"])
      assert.includeMembers(schemas["ErrorCode"]["enum"], ["balance_insufficient", "idempotency_key_reused"])
      assert.isArray(schemas["StarsOrderRequest"]["examples"])
      // Responses are open to new fields.
      assert.notInclude(JSON.stringify(doc), '"additionalProperties":false')
    })
  )

  it.effect(
    "the 303s name Location and Set-Cookie; /healthz is documented; the docs page has tags and an auth section",
    () =>
      Effect.gen(function* () {
        const doc = yield* served
        assert.hasAllKeys(doc["paths"]["/v2/admin/login"]["post"]["responses"]["303"]["headers"], [
          "Location",
          "Set-Cookie"
        ])
        assert.deepStrictEqual(Object.keys(doc["paths"]["/healthz"]["get"]["responses"]), ["200", "503"])
        const { url } = yield* TestServer
        const page = (yield* call(url, "/v2/api-docs", { headers: { accept: "text/html" } })).text
        assert.include(page, 'id="authentication"')
        assert.include(page, 'href="#tag-lists"')
        assert.include(page, "List orders")
      })
  )

  it.effect("every operation of both documents has a description", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const direct = (yield* call(url, "/direct/openapi.json")).json as Json
      for (const doc of [yield* served, direct]) {
        const bare = operations(doc)
          .filter(({ op }) => typeof op["description"] !== "string" || op["description"].trim() === "")
          .map(({ method, path }) => `${method} ${path}`)
        assert.deepStrictEqual(bare, [], `${doc["info"]["title"]}: operations without a description`)
      }
    })
  )

  it.effect("every request and response body of both documents has an example (the linter validates them)", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      assert.deepStrictEqual(withoutExamples(yield* served), [])
      assert.deepStrictEqual(withoutExamples((yield* call(url, "/direct/openapi.json")).json as Json), [])
      // The checker sees a missing one.
      assert.deepStrictEqual(
        withoutExamples({
          paths: { "/x": { get: { responses: { "200": { content: { "text/plain": { schema: {} } } } } } } }
        }),
        ["get /x 200 text/plain"]
      )
    })
  )

  it.effect("the direct surface has its own document with its coded errors", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const doc = (yield* call(url, "/direct/openapi.json")).json as Json
      assert.hasAllKeys(doc["paths"], [
        "/stars/buy",
        "/premium/buy",
        "/coin/buy",
        "/coin/transfer",
        "/balance",
        "/status",
        "/stars/quote",
        "/premium/quote",
        "/coin/quote",
        "/wallet/report",
        "/wallet/status"
      ])
      assert.includeMembers(doc["components"]["schemas"]["Failure"]["properties"]["code"]["enum"], [
        "VALIDATION_ERROR",
        "INSUFFICIENT_FUNDS",
        "WALLET_VM_ERROR",
        "PENDING_TRANSACTION",
        "RATE_LIMITED",
        "SERVICE_BUSY"
      ])
      assert.deepInclude(
        doc["paths"]["/stars/buy"]["post"]["requestBody"]["content"]["application/json"]["schema"]["properties"][
          "amount"
        ],
        {
          minimum: 50,
          maximum: 1_000_000
        }
      )
      // the surface reads every field but the phrase from the query string too: each is an optional
      // query parameter of GET and POST; the phrase is never one (it is refused in a URL)
      for (const [path, ops] of Object.entries(doc["paths"] as Json)) {
        // the wallet road is POST only, its fields in the body
        if (ops["get"] === undefined) {
          assert.deepStrictEqual([Object.keys(ops), ops["post"]["parameters"]], [["post"], undefined], path)
          continue
        }
        const fields = Object.keys(
          ops["post"]["requestBody"]["content"]["application/json"]["schema"]["properties"] ?? {}
        )
        for (const method of ["get", "post"]) {
          const parameters: Array<Json> = ops[method]["parameters"] ?? []
          assert.deepStrictEqual(
            parameters.map((p) => p["name"]),
            fields.filter((f) => f !== "seed"),
            `${method} ${path}`
          )
          assert.isTrue(
            parameters.every((p) => p["in"] === "query" && p["required"] === false),
            `${method} ${path}`
          )
        }
      }
    })
  )
})
