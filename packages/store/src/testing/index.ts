// Test harness for every package's tests against real PostgreSQL (see README.md in packages/store).
export * from "./IsolatedPostgres.ts"
export * from "./TestDatabase.ts"
