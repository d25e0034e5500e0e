// /dash: the demo page of spec 3 §2.1 (not part of the contract, §9): a side drawer of four sample
// month rows and a bar chart of them. Static sample figures; no patient data.
import type { MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import type { RouteHandle } from "~/ui/rootData";

export const handle: RouteHandle = { hydrate: false };
export const meta: MetaFunction = () => [{ title: "Demo | ARC Connect" }];

const SAMPLE_MONTHS = [
  { month: "January", therapies: 52 },
  { month: "February", therapies: 47 },
  { month: "March", therapies: 58 },
  { month: "April", therapies: 61 },
];

const WIDTH = 480;
const HEIGHT = 240;
const PAD = 32;
const MAX = 70;

export default function Demo() {
  const band = (WIDTH - 2 * PAD) / SAMPLE_MONTHS.length;
  return (
    <main className="d-flex min-vh-100">
      <aside className="border-end p-3 bg-light" style={{ width: 220 }} aria-label="Sample months">
        <Link to="/" className="fw-bold d-block mb-3">
          ARC Connect
        </Link>
        <ul className="list-group">
          {SAMPLE_MONTHS.map((m) => (
            <li key={m.month} className="list-group-item d-flex justify-content-between">
              <span>{m.month}</span>
              <span>{m.therapies}</span>
            </li>
          ))}
        </ul>
      </aside>
      <section className="p-4">
        <h1 className="h4">Demo chart</h1>
        <p className="text-muted">Sample therapies per month (made-up figures).</p>
        <svg
          viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
          width={WIDTH}
          height={HEIGHT}
          role="img"
          aria-label="Sample therapies per month"
        >
          {SAMPLE_MONTHS.map((m, i) => {
            const h = ((HEIGHT - 2 * PAD) * m.therapies) / MAX;
            const x = PAD + i * band + band * 0.15;
            return (
              <g key={m.month}>
                <rect x={x} y={HEIGHT - PAD - h} width={band * 0.7} height={h} fill="#0d6efd" />
                <text x={x + band * 0.35} y={HEIGHT - PAD + 16} textAnchor="middle" fontSize={12}>
                  {m.month.slice(0, 3)}
                </text>
                <text
                  x={x + band * 0.35}
                  y={HEIGHT - PAD - h - 4}
                  textAnchor="middle"
                  fontSize={12}
                >
                  {m.therapies}
                </text>
              </g>
            );
          })}
          <line x1={PAD} x2={WIDTH - PAD} y1={HEIGHT - PAD} y2={HEIGHT - PAD} stroke="#6c757d" />
        </svg>
      </section>
    </main>
  );
}
