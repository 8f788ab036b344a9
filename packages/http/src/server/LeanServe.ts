import { Context, Effect, Layer, Scope } from "effect"
import { RouteNoting } from "@resale/observability/RequestFacts.ts"
import { requestLog } from "@resale/observability/RequestLog.ts"
import { HttpRouter, HttpServer } from "effect/http"
import { withRequestId } from "@resale/webkit/RequestId.ts"
import { FastPaths } from "./FastPaths.ts"
import { SECRET_ROUTES, withoutSecretPathTracing, withSecretRouteSpan } from "./SecretRoutes.ts"

/** Errors or services without the router's request-level markers. */
type Served<X> = HttpRouter.Request.Without<X>

/**
 * `HttpRouter.serve` for `app`, whose request fibers carry the context this layer is built in and
 * nothing of `app`'s own.
 *
 * Why: effect merges a request fiber's context into every HttpApi handler call (one map copy per
 * request), so with all fifty application services there it costs a third of the server's
 * throughput. Give `app` its services (`Layer.provide`) and provide this layer only the platform
 * (the HTTP server, file system, loggers): that is what requests then carry. Routes and HttpApi
 * groups take their services when they are built (`buildWithOnly`), so nothing a route needs at
 * request time is lost; a raw route must take its services when it is added, not while it answers.
 * `app` is built in its own layer map (a fork of the caller's), so two servers in one program get
 * their own routes; a service `app` shares with the rest of the program must be built before it
 * (`ServerLayer.ts`).
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
      // The fast paths (if the server has them) log and run what they answer in the request fibers' context.
      return Layer.effectDiscard(
        Effect.contextWith((requests: Context.Context<never>) => {
          const fast = Context.getOption(requests, FastPaths)
          if (fast._tag === "Some") fast.value.attach(requests, logOptions)
          return served
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
 * Builds `layer` in a context holding only `keys` (which must cover everything the layer needs: the
 * compiler checks it). For HttpApi groups, which keep the context they were built in and merge it into
 * every request (over the request fiber's, which brings the platform and the loggers): a small one is a
 * cheap one.
 */
export const buildWithOnly = <A, E, R, const Keys extends ReadonlyArray<Context.Key<any, any>>>(
  layer: Layer.Layer<A, E, R>,
  keys: Covering<R, Keys>
): Layer.Layer<A, E, Needed<R>> =>
  // The request-time needs are now met by the kept context: the type says so.
  Layer.fromBuild((memoMap, scope) =>
    Effect.updateContext(
      Layer.buildWithMemoMap(layer, memoMap, scope),
      (context: Context.Context<R>) => Context.pick(...(keys as Keys))(context) as Context.Context<R>
    )
  ) as unknown as Layer.Layer<A, E, Needed<R>>
