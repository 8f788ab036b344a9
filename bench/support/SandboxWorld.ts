/**
 * The sandbox world the fulfilment and latency benchmarks run a real worker against: owned by the
 * bench process (TON emulator with a block interval, Fragment simulator with its cookie sessions) and
 * joined by the worker over loopback, as a production worker reaches toncenter and fragment.com.
 */
import { sharedSandboxWorld } from "@resale/world/SharedSandbox.ts"
import { Duration, Effect, Layer, type Scope } from "effect"

/** Fragment cookie sessions of the world (one purchase opened at a time per session). */
export const fragmentSessions = (): string => process.env.SANDBOX_FRAGMENT_SESSIONS ?? "4"

/** Starts the world in `scope`; close the scope to stop it. */
export const startSandboxWorld = (dataDir: string, blockSeconds: number, scope: Scope.Closeable) =>
  Effect.runPromise(
    Layer.buildWithScope(
      sharedSandboxWorld(dataDir, {
        sessionHold: Duration.minutes(3),
        sessionWait: Duration.seconds(30),
        blockInterval: Duration.seconds(blockSeconds),
        fragmentSessions: Number(fragmentSessions())
      }),
      scope
    )
  )

/** The worker's environment on that world and `databaseUrl`; `extra` adds or overrides settings. */
export const sandboxWorkerEnv = (
  databaseUrl: string,
  dataDir: string,
  blockSeconds: number,
  probePort: number,
  extra: Record<string, string>
): NodeJS.ProcessEnv => ({
  ...process.env,
  DATABASE_URL: databaseUrl,
  SANDBOX: "true",
  DATA_DIR: dataDir,
  HOST: "127.0.0.1",
  WORKER_PROBE_PORT: String(probePort),
  SANDBOX_BLOCK_INTERVAL: `${blockSeconds} seconds`,
  SANDBOX_FRAGMENT_SESSIONS: fragmentSessions(),
  LOG_FORMAT: "json",
  ...extra
})
