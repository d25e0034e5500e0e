// Factories of the rows the demo world (prisma/seed.ts) and the tests make, outside app/ and tests/
// because the seed runs inside the release binary too. They know the schema, not the app's rules:
// a test that needs a rule applied (a device made through the device API) calls the app instead.
export * from "./client";
export * from "./ids";
export * from "./people";
export * from "./devices";
export * from "./care";
export * from "./chat";
export * from "./bulk";
