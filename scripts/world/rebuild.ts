// The child process of buildWorld (build.ts): the app's own rebuildAll() on DATA_DIR, which the
// app reads once per process. Prints the result as JSON on its last line.
//   DATA_DIR=dir node --import tsx scripts/world/rebuild.ts <now as epoch ms>
async function main() {
  const now = new Date(Number(process.argv[2] ?? Date.now()));
  const { prisma } = await import("../../app/lib/db.server");
  // During the build only (the world is built again after a crash); the app sets its own at start.
  await prisma.$queryRawUnsafe("PRAGMA journal_mode = WAL");
  await prisma.$queryRawUnsafe("PRAGMA synchronous = OFF");
  await prisma.$queryRawUnsafe("PRAGMA cache_size = -400000");
  await prisma.$queryRawUnsafe("PRAGMA mmap_size = 8589934592"); // reads without a syscall a page
  const { rebuildAll } = await import("../../app/domain/adherence/adherence.server");
  const result = await rebuildAll(now);
  await prisma.$disconnect();
  const cpu = process.cpuUsage();
  process.stdout.write(`\n${JSON.stringify({ ...result, cpu: (cpu.user + cpu.system) / 1e6 })}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
