// Images that are small as files and huge as pixels, written byte by byte (sharp would have to
// decode them to write them): a PNG of one-bit grey pixels, all zero, deflated to a few kilobytes.
import zlib from "node:zlib";

function chunk(type: string, data: Buffer) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A valid PNG of width x height black pixels (1-bit greyscale), its data deflated. */
export function blankPng(width: number, height: number) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // greyscale
  const row = 1 + Math.ceil(width / 8); // a filter byte, then the pixels
  const deflate = zlib.createDeflate({ level: 9 });
  const parts: Buffer[] = [];
  deflate.on("data", (c: Buffer) => parts.push(c));
  const zeros = Buffer.alloc(row * 1024);
  for (let y = 0; y < height; y += 1024) {
    deflate.write(zeros.subarray(0, row * Math.min(1024, height - y)));
  }
  deflate.end();
  return new Promise<Buffer>((resolve, reject) => {
    deflate.on("end", () =>
      resolve(
        Buffer.concat([
          Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
          chunk("IHDR", header),
          chunk("IDAT", Buffer.concat(parts)),
          chunk("IEND", Buffer.alloc(0)),
        ]),
      ),
    );
    deflate.on("error", reject);
  });
}

/** The highest resident set size seen while `work` runs, over the size before it, in bytes. */
export async function peakRssGrowth<T>(work: () => Promise<T>) {
  const before = process.memoryUsage().rss;
  let peak = before;
  const sample = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 2);
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { result, growth: peak - before };
  } finally {
    clearInterval(sample);
  }
}
