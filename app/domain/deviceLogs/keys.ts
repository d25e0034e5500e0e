// The device log keys are configuration, parsed with the environment: app/lib/logKeys.ts (lib
// imports nothing from a domain area). The area keeps these names for its own modules and tests.
export { DEMO_KEY_HEX, DEMO_KEY_ID, parseLogKeys, resolveLogKeys } from "~/lib/logKeys";
