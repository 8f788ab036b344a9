import { Context, Effect, Layer, Scope } from "effect"
import { RouteNoting } from "@resale/observability/RequestFacts.ts"
import { requestLog } from "@resale/observability/RequestLog.ts"
import { HttpRouter, HttpServer } from "effect/http"
import { FrontDoor } from "./FrontDoor.ts"
import { withRequestId } from "@resale/webkit/RequestId.ts"
import { SECRET_ROUTES, withoutSecretPathTracing, withSecretRouteSpan } from "./SecretRoutes.ts"

/**
 * The platform's own services (`effect/...`: HTTP platform, file system, path, scope, references),
 * which a request may need while it is answered; the application's services are left out.
 * The `effect/` key prefix is effect's naming, not a documented promise: `LeanServe.test.ts` fails
 * on the effect upgrade that changes it.
 */
export const platformOnly = <R>(context: Context.Context<R>): Context.Context<R> =>
  Context.makeUnsafe(
    new Map([...context.mapUnsafe].filter(([key]) => key.startsWith("effect/") || key.startsWith("~effect/")))
  )

/** Errors or services without the router's request-level markers. */
type Served<X> = HttpRouter.Request.Without<X>

/**
 * `HttpRouter.serve` whose request fibers carry only the platform's services.
 *
 * Why: effect merges a fiber's context into every HttpApi handler call (one map copy per request),
 * so with all fifty application services there it costs a third of the server's throughput.
 * Routes and HttpApi groups take their services when they are built (HttpApi handlers also get the
 * context their group was built in), so nothing a route needs at request time is lost. A raw route
 * must take its services when it is added, not while it answers: every test server serves this way.
 */
export const serveLean = <A, E, R>(
  app: Layer.Layer<A, E, R>,
  options: { readonly logRequests: boolean }
): Layer.Layer<never, Served<E>, HttpServer.HttpServer | Exclude<Served<R>, HttpRouter.HttpRouter>> =>
  Effect.contextWith((context: Context.Context<Scope.Scope>) =>
    Layer.buildWithMemoMap(
      // `RouteNoting` is in the context every route is added in, so each route notes its pattern for the request log.
      Layer.provideMerge(app, Layer.merge(HttpRouter.layer, RouteNoting)),
      Layer.CurrentMemoMap.forkOrCreate(context),
      Context.get(context, Scope.Scope)
    )
  ).pipe(
    Effect.map((built) => {
      const handler = Context.get(built, HttpRouter.HttpRouter).asHttpEffect()
      // One log line per request (unless turned off) and the request metrics.
      // The request id wraps the request log, so its line and every line of the request carry `request_id`.
      // Paths carrying a secret are logged and traced as their pattern (`SecretRoutes.ts`).
      const logOptions = { log: options.logRequests, secretRoutes: SECRET_ROUTES }
      const served = withoutSecretPathTracing(
        HttpServer.serveEffect(handler, (app) => withSecretRouteSpan(withRequestId(requestLog(logOptions)(app))))
      )
      // A front door (if the server has one) logs what it answers in the context request fibers get.
      return Layer.effectDiscard(
        Effect.contextWith((outer: Context.Context<never>) => {
          const door = Context.getOption(outer, FrontDoor)
          const attach =
            door._tag === "None"
              ? Effect.void
              : Effect.contextWith((requests: Context.Context<never>) =>
                  Effect.sync(() => door.value.attach(requests, logOptions))
                )
          const serving: Effect.Effect<void, never, HttpServer.HttpServer | Scope.Scope> = Effect.andThen(
            attach,
            served
          )
          return Effect.updateContext(serving, (context: Context.Context<HttpServer.HttpServer | Scope.Scope>) =>
            platformOnly(context)
          )
        })
      )
    }),
    Layer.unwrap,
    HttpServer.withLogAddress
  ) as unknown as Layer.Layer<never, Served<E>, HttpServer.HttpServer | Exclude<Served<R>, HttpRouter.HttpRouter>>

type KeyId<K> = K extends Context.Key<infer I, infer _S> ? I : never

/** What a layer needs to be built, and what its routes need while they answer requests. */
type Needed<R> = HttpRouter.Request.Without<R> | HttpRouter.Request.Only<"Requires", R>

/** `Keys`, or a type error naming the services they leave out of `R`. */
type Covering<R, Keys extends ReadonlyArray<Context.Key<any, any>>> = [
  Exclude<Needed<R>, KeyId<Keys[number]>>
] extends [never]
  ? Keys
  : { readonly missing: Exclude<Needed<R>, KeyId<Keys[number]>> }

/**
 * Builds `layer` in a context holding only the platform's services and `keys` (which must cover
 * everything the layer needs: the compiler checks it). For HttpApi groups, which keep the context
 * they were built in and merge it into every request: a small one is a cheap one.
 */
export const buildWithOnly = <A, E, R, const Keys extends ReadonlyArray<Context.Key<any, any>>>(
  layer: Layer.Layer<A, E, R>,
  keys: Covering<R, Keys>
): Layer.Layer<A, E, Needed<R>> =>
  // The request-time needs are now met by the kept context: the type says so.
  Layer.fromBuild((memoMap, scope) =>
    Effect.updateContext(Layer.buildWithMemoMap(layer, memoMap, scope), (context: Context.Context<R>) =>
      Context.merge(platformOnly(context), Context.pick(...(keys as Keys))(context))
    )
  ) as unknown as Layer.Layer<A, E, Needed<R>>
