// Types of bundle.mjs for the TypeScript that imports it (the footprint benchmark, the launcher test).
export declare const ROOT: string
export declare const ENTRIES: { readonly server: string; readonly worker: string; readonly cli: string }
/** The current build's directory when no file it was made of changed, else undefined. */
export declare const freshBuild: () => string | undefined
/** Builds every entry into a new directory of dist/ and makes it the current build; returns it. */
export declare const build: () => Promise<string>
/** Runs `use` with esbuild's API, then stops esbuild's service process. */
export declare const withEsbuild: <A>(use: (esbuild: typeof import("esbuild")) => Promise<A>) => Promise<A>
