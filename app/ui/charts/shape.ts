// The patient profile's charts (spec 3 §2.2, §2.4, §9) as plain data: every bar with its height,
// colour and label, every series point with its gaps, every tick and caption. The components in
// app/ui/charts draw exactly this, so the rules are tested here without rendering
// (tests/unit/chart-shape.test.ts). One module per chart family; this one names them all.
export * from "./adherenceShape";
export * from "./colors";
export * from "./cycleShape";
export { formatDayMonth } from "./days";
export * from "./lineShape";
