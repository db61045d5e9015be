import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { StatsDay } from '../../api/stats';

const SERIES = [
  { label: 'Accepted', stroke: '#4493f8', value: (day: StatsDay) => day.accepted },
  { label: 'Sent', stroke: '#2da44e', value: (day: StatsDay) => day.byStatus.sent },
  { label: 'Bounced', stroke: '#d4a72c', value: (day: StatsDay) => day.byStatus.bounced },
  { label: 'Complained', stroke: '#e5534b', value: (day: StatsDay) => day.byStatus.complained },
] as const;

const HEIGHT = 260;

/**
 * The daily counts drawn by uPlot on a canvas. uPlot sizes its elements through the CSSOM
 * (element.style), which the console's style-src 'self' allows; its stylesheet is bundled.
 * Hidden from assistive technology: the page's table carries the same numbers.
 */
export default function StatsChart({ days }: { days: StatsDay[] }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current!;
    const axisColor = getComputedStyle(element).color;
    const data: uPlot.AlignedData = [
      // uPlot's x scale is in seconds; each day at its UTC midnight.
      days.map((day) => Date.parse(`${day.date}T00:00:00Z`) / 1000),
      ...SERIES.map((series) => days.map(series.value)),
    ];
    const axis = { stroke: axisColor, grid: { stroke: 'rgba(128,128,128,0.2)' }, ticks: { show: false } };
    const chart = new uPlot(
      {
        width: element.clientWidth,
        height: HEIGHT,
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        scales: { y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
        axes: [axis, { ...axis, size: 50 }],
        series: [{}, ...SERIES.map(({ label, stroke }) => ({ label, stroke, width: 2, points: { show: false } }))],
      },
      data,
      element,
    );
    const resize = new ResizeObserver(() => chart.setSize({ width: element.clientWidth, height: HEIGHT }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [days]);
  return <div ref={box} className="stats-chart" aria-hidden="true" data-testid="stats-chart" />;
}
