export { makeCli } from "./Cli.ts"
