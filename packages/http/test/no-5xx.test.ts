import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { apiRoutes } from "../src/server/HttpApp.ts"
import { WEB_ROUTES } from "@resale/web/WebUi.ts"
import { adminSignIn, call, signIn, TEST_ADMIN_TOKEN } from "./Client.ts"
import { pgTestServer, TestServer } from "./TestServer.ts"

/**
 * Odd values for every path parameter, odd queries, cookies and bodies for every route of the
 * contract and the web UI, anonymous and signed in: a client mistake is never a 5xx.
 */
const ODD_IDS = ["0", "-1", "abc", "1.5", "1e309", "99999999999", "9007199254740993", "%00", "%E2%82", "' OR 1=1"]
const ODD_QUERY =
  "?offset=-5&limit=1e309&after=abc&status=%FF&kind=x&user=" + "u".repeat(300) + "&back=//evil.example&to=xx"
const ODD_COOKIE =
  "resale_session=x.y; resale_admin=%ZZ; resale_login_state=" +
  "a".repeat(32) +
  "; resale_csrf=<>; resale_flash=e30.AAAA"
const ODD_BODIES: Array<[string, string]> = [
  ["application/json", "{"],
  ["application/json", "[]"],
  ["application/json", "null"],
  ["application/json", `{"amount_uzs": 1e400, "username": {"a": 1}, "gift_id": [], "body": null}`],
  ["application/json", "[".repeat(40) + "]".repeat(40)],
  ["application/x-www-form-urlencoded", "amount_uzs=99999999999999999999&username=%FF&topup_id=-4"],
  ["multipart/form-data; boundary=x", "--x\r\nbroken"],
  ["text/plain", "hello"]
]

interface Caller {
  readonly headers?: Record<string, string>
  readonly cookie?: string
}

layer(pgTestServer({}), { timeout: "240 seconds", excludeTestServices: true })("no 5xx for client input", (it) => {
  it.effect(
    "every route, odd ids and odd bodies, anonymous and signed in: never a 5xx",
    () =>
      Effect.gen(function* () {
        const { url } = yield* TestServer
        const user = yield* signIn(url, 88001, "fuzz_user")
        const admin = yield* adminSignIn(url)
        const key = (yield* call(url, "/v2/api-key/rotate", { method: "POST", cookie: user })).json.api_key as string
        const routes = [...apiRoutes(), ...WEB_ROUTES].filter((r) => r.method !== "HEAD")
        const failures: Array<string> = []
        const credentials = (path: string): Caller =>
          path.startsWith("/v2/api/admin")
            ? { headers: { "x-admin-token": TEST_ADMIN_TOKEN } }
            : path.startsWith("/v2/api/")
              ? { headers: { "x-api-key": key } }
              : path.startsWith("/v2/admin")
                ? { cookie: admin }
                : { cookie: user }
        /** Every way one route is called: each odd id, each body, each caller, as an API client and as a browser. */
        const cases = routes.flatMap((route) =>
          (route.path.includes(":") ? ODD_IDS : [""]).flatMap((id) => {
            const path = route.path.replace(/:[a-z_]+/g, id)
            const who = credentials(path)
            const bodies = route.method === "GET" ? [undefined] : [undefined, ...ODD_BODIES]
            return bodies.flatMap((body) =>
              [{}, who, { cookie: ODD_COOKIE }].flatMap((auth: Caller) =>
                ["application/json", "text/html"].map((accept) => ({ route, path, body, auth, accept }))
              )
            )
          })
        )
        for (const { accept, auth, body, path, route } of cases) {
          const answer = yield* call(url, route.method === "GET" ? `${path}${ODD_QUERY}` : path, {
            method: route.method,
            headers: { accept, ...auth.headers, ...(body ? { "content-type": body[0] } : {}) },
            ...(auth.cookie === undefined ? {} : { cookie: auth.cookie }),
            ...(body ? { body: body[1] } : {})
          })
          if (answer.status >= 500) {
            failures.push(
              `${accept} ${route.method} ${path} ${body?.[1].slice(0, 30) ?? ""}: ${answer.status} ${answer.text.slice(0, 120)}`
            )
          }
        }
        assert.deepStrictEqual(failures, [])
      }),
    240_000
  )
})
