// Runs before `npm start` / `npm run worker` (prestart, preworker) on whatever Node npm found first on
// PATH, which is the pinned one in node_modules/.bin after `npm ci`. Plain CommonJS on purpose: it must
// run on an old Node too, to say clearly what is wrong instead of failing on TypeScript syntax.
const [major, minor] = process.versions.node.split(".").map(Number)
if (major < 22 || (major === 22 && minor < 19)) {
  process.stderr.write(
    `resale needs Node >= 22.19, but this is Node ${process.versions.node} (${process.execPath}).\n` +
      "`npm ci --omit=dev` installs Node 22 into node_modules/.bin (the `node` package); if it is missing, your npm\n" +
      "skipped its install script: run `npm rebuild node` (npm 11 reads the approval from allowScripts in package.json).\n"
  )
  process.exit(1)
}
