// The server build loads every route and domain module at start, so a static import of a heavy
// library costs every process its memory even when no request needs it (docs/decisions.md,
// "Memory budget"). The libraries few requests use are imported where they are used, with
// `await import(...)`; a type-only import is fine (it leaves nothing in the build).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/** Loaded by the first request that needs them: RSS each adds to a process at start. */
const LAZY = ["sharp", "pdfkit", "exceljs", "nodemailer"];

const ROOT = path.resolve(__dirname, "../..");

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "generated" ? [] : sourceFiles(file);
    return /\.(ts|tsx)$/.test(entry.name) && !/\.test\./.test(entry.name) ? [file] : [];
  });
}

/** `import x from "lib"` or `import "lib/sub"` or `export … from "lib"`, not `import type`. */
function staticImports(source: string) {
  const found: string[] = [];
  const pattern =
    /^\s*(import|export)\s+(?!type\s)[^;]*?from\s+"([^"]+)"|^\s*import\s+"([^"]+)"/gms;
  for (const match of source.matchAll(pattern)) found.push(match[2] ?? match[3]);
  return found;
}

describe("heavy libraries few requests need", () => {
  it("are never imported statically by the app or the server", () => {
    const files = [...sourceFiles(path.join(ROOT, "app")), ...sourceFiles(path.join(ROOT, "server")), path.join(ROOT, "server.ts")]; // prettier-ignore
    const offenders = files.flatMap((file) =>
      staticImports(fs.readFileSync(file, "utf8"))
        .filter((name) => LAZY.some((lib) => name === lib || name.startsWith(`${lib}/`)))
        .map((name) => `${path.relative(ROOT, file)}: ${name}`),
    );
    expect(offenders).toEqual([]);
  });

  it("recognises a static import and lets a type-only import pass", () => {
    expect(staticImports('import sharp, { type Metadata } from "sharp";')).toEqual(["sharp"]);
    expect(staticImports('import SMTPTransport from "nodemailer/lib/smtp-transport";')).toEqual([
      "nodemailer/lib/smtp-transport",
    ]);
    expect(staticImports('import type { Metadata } from "sharp";')).toEqual([]);
    expect(staticImports('const { default: X } = await import("exceljs");')).toEqual([]);
  });
});
