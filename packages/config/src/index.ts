/**
 * The configuration of every entry (server, worker, CLI): one catalogue of settings, the mode
 * decided once, production's required secrets checked, every problem reported at once.
 */
export { AppConfig, environmentNow, reportConfigProblems } from "./AppConfig.ts"
export type {
  AppSettings,
  DirectLimits,
  FragmentSettings,
  Role,
  TelegramAccounts,
  ToncenterSettings,
  WorkerTimings
} from "./AppSettings.ts"
export { CATALOGUE } from "./Catalogue.ts"
export { ConfigProblems } from "./ConfigProblems.ts"
export { renderEnvExample } from "./EnvExample.ts"
export { type ObservabilitySettings, readObservability } from "./ObservabilitySettings.ts"
export { MIN_ADMIN_TOKEN, MIN_SESSION_SECRET } from "./ProductionChecks.ts"
export { readSettings } from "./ReadSettings.ts"
