// Inside the release binary: the files the app reads from disk (public/, prisma/migrations/, the
// native addons and libvips) travel as assets of the executable (scripts/binary/build.mjs) and
// are unpacked once per build into ARC_RUNTIME_DIR (default: the system's temporary folder).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sea from "node:sea";

type Manifest = { version: string; hash: string; files: string[] };

let root: string | null = null;

function unpack(manifest: Manifest, dir: string) {
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  // Written under another name and renamed when whole: a second process starting at the same
  // moment, or a crash half-way, never leaves a partial folder under the real name.
  const staging = fs.mkdtempSync(`${dir}.unpacking-`);
  try {
    for (const file of manifest.files) {
      const target = path.join(staging, file);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, new Uint8Array(sea.getRawAsset(file) as ArrayBuffer));
    }
    fs.writeFileSync(path.join(staging, ".complete"), manifest.hash);
    fs.renameSync(staging, dir);
  } catch (error) {
    fs.rmSync(staging, { recursive: true, force: true });
    if (!fs.existsSync(path.join(dir, ".complete"))) throw error;
  }
}

/** The folder holding the unpacked files; unpacks them on first use. */
export function runtimeRoot(): string {
  if (root) return root;
  const manifest = JSON.parse(sea.getAsset("manifest.json", "utf8")) as Manifest;
  const base = path.resolve(process.env.ARC_RUNTIME_DIR || os.tmpdir());
  // Per user: a folder another account made (in a shared /tmp) is never loaded code from.
  const dir = path.join(
    base,
    `arc-connect-${manifest.version}-${manifest.hash}-${process.getuid?.() ?? 0}`,
  );
  if (!fs.existsSync(path.join(dir, ".complete"))) {
    fs.rmSync(dir, { recursive: true, force: true });
    unpack(manifest, dir);
  }
  const stat = fs.statSync(dir);
  if (stat.uid !== process.getuid?.() || stat.mode & 0o022) {
    throw new Error(
      `${dir} is not this user's own folder: set ARC_RUNTIME_DIR to a private folder`,
    );
  }
  (globalThis as { __arcAppRoot?: string }).__arcAppRoot = root = dir;
  return dir;
}

/** Loads a native addon unpacked from the binary (the bundle's stand-in for `require("x.node")`). */
export function loadAddon(file: string): unknown {
  const module = { exports: {} };
  process.dlopen(module, path.join(runtimeRoot(), file));
  return module.exports;
}
