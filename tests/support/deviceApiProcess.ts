// The server's device API in a process of its own, for the kill -9 test
// (tests/integration/device-api-server.test.ts): the real express chain of server/http.ts with the
// app's own device API handler, on DATA_DIR's database. Prints "listening <port>" once it answers.
//   node --import tsx tests/support/deviceApiProcess.ts
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { configureDatabase } from "~/lib/db.server";
import { handleDeviceApi } from "~/domain/devices/deviceApi.server";
import { createApp } from "../../server/http";

async function main() {
  await configureDatabase();
  const app = createApp({
    root: path.resolve(__dirname, "..", ".."),
    mode: "production",
    handler: (_req, res) => void res.status(404).end(),
    deviceApi: handleDeviceApi,
    readiness: async () => ({ ready: true }),
  });
  const server = http.createServer(app);
  server.listen(0, "127.0.0.1", () => {
    console.log(`listening ${(server.address() as AddressInfo).port}`);
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
