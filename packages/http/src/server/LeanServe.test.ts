import { NodeCrypto, NodeHttpServer } from "@effect/platform-node"
import { assert, describe, it } from "@effect/vitest"
import { Context, Effect, FileSystem, Layer, Logger, Path, References } from "effect"
import { Digest } from "effect/crypto"
import { Etag, HttpPlatform, HttpServer } from "effect/http"
import { createServer } from "node:http"
import { platformOnly } from "./LeanServe.ts"

/**
 * `serveLean` keeps a request's context small by keeping only the services effect names under its
 * own `effect/` prefix (`platformOnly`). That naming is effect's, not a documented promise: this test
 * is the guard that fails on the effect upgrade that changes it, before a server loses its platform
 * (file answers, uploads), its logger or its log level at request time.
 */
class AppService extends Context.Service<AppService, { readonly n: number }>()("http/test/AppService") {}

const platform = Layer.mergeAll(
  NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" }),
  NodeCrypto.layerDigest,
  Logger.layer([Logger.make(() => undefined)]),
  Layer.succeed(References.MinimumLogLevel, "Debug"),
  Layer.succeed(References.TracerEnabled, false)
)

describe("platformOnly (the lean request context)", () => {
  it.effect(
    "keeps every service the platform layers provide and the program's logging references, drops the application's",
    () =>
      Effect.scoped(
        Effect.gen(function* () {
          const built = yield* Layer.build(Layer.merge(platform, Layer.succeed(AppService, { n: 1 })))
          const kept = platformOnly(built)
          for (const key of built.mapUnsafe.keys()) {
            if (key !== AppService.key) assert.isTrue(kept.mapUnsafe.has(key), `platformOnly drops ${key}`)
          }
          // By name, the ones a request needs while it is answered (file answers, uploads, hashing, logging).
          const services: ReadonlyArray<Context.Key<any, any>> = [
            HttpServer.HttpServer,
            HttpPlatform.HttpPlatform,
            Etag.Generator,
            FileSystem.FileSystem,
            Path.Path,
            Digest.Digest
          ]
          for (const service of services) assert.isTrue(kept.mapUnsafe.has(service.key), service.key)
          for (const reference of [References.MinimumLogLevel, References.TracerEnabled, Logger.CurrentLoggers]) {
            assert.isTrue(kept.mapUnsafe.has(reference.key), reference.key)
          }
          assert.isFalse(kept.mapUnsafe.has(AppService.key))
        })
      )
  )
})
