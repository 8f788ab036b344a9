/**
 * The layers commands run on, loaded on demand: importing the store pulls in the PostgreSQL driver,
 * the migrator and PGlite, which `--help` and usage errors never need.
 */
export const CliCore = () => import("./CliStore.ts").then((m) => m.CliCore)
export const CliConnection = () => import("./CliStore.ts").then((m) => m.CliConnection)
export const CliDirect = () => import("./CliChain.ts").then((m) => m.CliDirect)
