// The import rule of docs/architecture.md, enforced: routes → domain → lib, anything → ui, no
// circles. `npm run lint` runs it over app/ and server/; any error fails `npm test`.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "lib-imports-nothing-above-it",
      severity: "error",
      comment:
        "app/lib is infrastructure (db, env, session, transports, logging, HTTP, time): it must not " +
        "reach up into domain, routes, ui or jobs. Move the shared piece down into lib.",
      from: { path: "^app/lib/" },
      to: { path: "^app/(domain|routes|ui|jobs)/" },
    },
    {
      name: "domain-not-to-routes-or-jobs",
      severity: "error",
      comment:
        "A domain area serves routes and jobs, never the other way round: move what it needs from " +
        "the route or job into the area (or into lib if it is infrastructure).",
      from: { path: "^app/domain/" },
      to: { path: "^app/(routes|jobs)/" },
    },
    {
      name: "ui-not-to-domain",
      severity: "error",
      comment:
        "app/ui holds components several areas share; it knows no area. Pass what a component " +
        "needs as props, or move the component into the area's ui/ folder.",
      from: { path: "^app/ui/" },
      to: { path: "^app/(domain|routes|jobs)/" },
    },
    {
      name: "route-not-to-route",
      severity: "error",
      comment:
        "A route is a URL contract and never imports another route: what two routes share belongs " +
        "in their domain area (or in app/ui). Files inside one route folder may import each other.",
      from: { path: "^app/routes/[^/]+$" },
      to: { path: "^app/routes/" },
    },
    {
      name: "route-folder-not-to-other-route",
      severity: "error",
      comment:
        "A route folder's files (app/routes/<route>/route.tsx and its helpers) may import each " +
        "other, never another route.",
      from: { path: "^app/routes/([^/]+)/" },
      to: { path: "^app/routes/", pathNot: "^app/routes/$1/" },
    },
    {
      name: "not-to-root-route",
      severity: "error",
      comment:
        "app/root.tsx is the root route and entry.client/entry.server are Remix's entry points: " +
        "no module imports them. What every page shares (RouteHandle, the root flash) is in " +
        "app/ui/rootData.ts.",
      from: {},
      to: { path: "^app/(root|entry[.](client|server))[.]tsx$" },
    },
    {
      name: "jobs-not-to-routes",
      severity: "error",
      comment: "Scheduled jobs call the domain; they never import a route.",
      from: { path: "^app/jobs/" },
      to: { path: "^app/routes/" },
    },
    {
      name: "no-circular",
      severity: "error",
      comment:
        "This module is part of an import circle. Break it: move the shared part into a module both " +
        "import, or pass a function in (dependency inversion).",
      from: { path: "^(app|server)/" },
      to: { circular: true },
    },
    {
      name: "not-to-unresolvable",
      severity: "error",
      comment:
        "This import does not resolve to a file on disk. A missing npm package belongs in package.json; " +
        "otherwise the path is wrong.",
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: "no-non-package-json",
      severity: "error",
      comment:
        "This module imports an npm package that package.json does not list (it only works because " +
        "something else pulls it in). Add it to dependencies.",
      from: {},
      to: { dependencyTypes: ["npm-no-pkg", "npm-unknown"] },
    },
    {
      name: "not-to-test",
      severity: "error",
      comment: "Application code never imports test code.",
      from: { path: "^(app|server)/" },
      to: { path: ["^tests/", "[.](?:spec|test)[.](?:js|mjs|cjs|jsx|ts|mts|cts|tsx)$"] },
    },
  ],
  options: {
    doNotFollow: { path: ["node_modules"] },
    // Prisma's generated client is code we do not write: its imports are Prisma's business.
    exclude: { path: ["^app/generated/"] },
    moduleSystems: ["es6", "cjs"],
    // Type-only imports (`import type`, `import { type X }`) count: a type pulls its module's
    // vocabulary in as surely as a value does.
    tsPreCompilationDeps: true,
    // Resolves the `~/` alias through tsconfig's paths.
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".json", ".d.ts"],
      mainFields: ["module", "main", "types", "typings"],
    },
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};
