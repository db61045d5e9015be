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

const whole = (count: number) => Math.round(count).toLocaleString();

/**
 * The count axis: whole numbers only (a day has 3 messages, never 2.5), at most six ticks from 0,
 * a step of 1, 2 or 5 times a power of ten, and the top a whole step above the largest count.
 */
function countAxis(max: number): { top: number; ticks: number[] } {
  let step = 1;
  for (let power = 1; max / step > 5; power *= 10) {
    step = [1, 2, 5].map((m) => m * power).find((candidate) => max / candidate <= 5) ?? 10 * power;
  }
  const top = Math.max(1, Math.ceil(max / step)) * step;
  return { top, ticks: Array.from({ length: top / step + 1 }, (_, i) => i * step) };
}

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
    const counts = SERIES.flatMap((series) => days.map(series.value));
    const y = countAxis(Math.max(0, ...counts));
    // The ticks drawn, for a reader of the page's state (the browser tests): canvas text is not in the DOM.
    element.dataset.yTicks = y.ticks.join(',');
    const chart = new uPlot(
      {
        width: element.clientWidth,
        height: HEIGHT,
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        scales: { y: { range: () => [0, y.top] } },
        axes: [
          { ...axis, label: 'Day (UTC)', labelSize: 20 },
          {
            ...axis,
            size: 50,
            label: 'Messages',
            labelSize: 20,
            splits: () => y.ticks,
            values: (_u, ticks) => ticks.map(whole),
          },
        ],
        legend: { live: true },
        series: [
          {
            label: 'Day (UTC)',
            value: (_u, ts) => (ts == null ? '—' : new Date(ts * 1000).toISOString().slice(0, 10)),
          },
          ...SERIES.map(({ label, stroke }) => ({
            label,
            stroke,
            width: 2,
            points: { show: false },
            value: (_u: uPlot, count: number | null) => (count == null ? '—' : whole(count)),
          })),
        ],
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
