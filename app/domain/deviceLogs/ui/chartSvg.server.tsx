// The therapy dashboard's main graph (spec 3 §2.7) as an SVG string, rendered in loaders like the
// patient profile's charts (app/ui/charts/svg.server.tsx: one accessible <svg>, no script).
import { renderChartSvg } from "~/ui/charts/svg.server";
import { shapeTherapyDashboardChart, type ChartAnnotation } from "../chart";
import type { GraphPage } from "../graph";
import { TherapyDashboardChart } from "./TherapyDashboardChart";

/** The therapy dashboard's main graph of one page of points (spec 3 §2.7). */
export function therapyDashboardChartSvg(
  page: GraphPage,
  annotations: readonly ChartAnnotation[] = [],
): string {
  const shape = shapeTherapyDashboardChart(page, annotations);
  return renderChartSvg(<TherapyDashboardChart shape={shape} />, shape.title);
}
