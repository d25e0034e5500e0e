// npm run db:world -- --patients N --days D [--seed S] [--data-dir DIR] [--fresh]
// Fills DATA_DIR (default ./data, as the app) with a world at scale: see build.ts.
import path from "node:path";
import { DEFAULT_SEED, buildWorld } from "./build";

const USAGE =
  "usage: npm run db:world -- --patients N --days D [--seed S] [--data-dir DIR] [--fresh]";

function value(args: string[], name: string) {
  const i = args.indexOf(`--${name}`);
  if (i < 0) return undefined;
  const v = args[i + 1];
  if (v === undefined || v.startsWith("--")) throw new Error(`--${name} needs a value\n${USAGE}`);
  return v;
}

function whole(args: string[], name: string, fallback?: number) {
  const v = value(args, name);
  if (v === undefined) {
    if (fallback === undefined) throw new Error(`--${name} is required\n${USAGE}`);
    return fallback;
  }
  const n = Number(v.replace(/[_,]/g, ""));
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a whole number ≥ 1\n${USAGE}`); // prettier-ignore
  return n;
}

async function main(args: string[]) {
  if (args.includes("--help") || args.includes("-h")) {
    console.log(USAGE);
    return;
  }
  const dataDir = path.resolve(value(args, "data-dir") ?? process.env.DATA_DIR ?? "data");
  await buildWorld({
    dataDir,
    patients: whole(args, "patients"),
    days: whole(args, "days"),
    seed: whole(args, "seed", DEFAULT_SEED),
    fresh: args.includes("--fresh"),
    log: (line) => console.log(line),
  });
  console.log(
    "Demo accounts (password Demo-pass1!): demo.siteadmin and demo.clinician work in the big site.",
  );
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
