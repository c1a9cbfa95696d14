import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  type ChartConfiguration,
  Legend,
  LinearScale,
  Tooltip,
} from 'chart.js';
import { useEffect, useId, useRef } from 'react';
import { formatNumber, locale, useT } from '../../shared/i18n.ts';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip);

/** Minutes as hours to one decimal, for a chart's bars. */
export const chartHours = (minutes: number) => Math.round((minutes / 60) * 10) / 10;

export type Series = { label: string; values: number[]; color: string };

/**
 * A bar chart (Chart.js, docs/decisions/0011-dashboard-charts.md) with its figures as a table beside it: the
 * canvas is an image named by `title` and `summary`, and the table under "The figures" says the same to
 * anyone who would rather read, or cannot see the chart.
 */
export function BarChart({
  title,
  summary,
  labels,
  series,
  unit,
  horizontal = false,
  format = formatNumber,
}: {
  title: string;
  summary: string;
  labels: string[];
  series: Series[];
  unit: string;
  horizontal?: boolean;
  format?: (value: number) => string;
}) {
  const t = useT();
  const canvas = useRef<HTMLCanvasElement>(null);
  const titleId = useId();
  // Redrawn when the figures change, not on every render of the page around it.
  const key = JSON.stringify({ labels, series, unit, horizontal, language: locale() });
  // biome-ignore lint/correctness/useExhaustiveDependencies: key stands for labels, series, unit and horizontal
  useEffect(() => {
    if (!canvas.current) return;
    const config: ChartConfiguration<'bar'> = {
      type: 'bar',
      data: {
        labels,
        datasets: series.map((item) => ({
          label: item.label,
          data: item.values,
          backgroundColor: item.color,
        })),
      },
      options: {
        indexAxis: horizontal ? 'y' : 'x',
        locale: locale(),
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        plugins: {
          legend: { display: series.length > 1, position: 'bottom' },
          tooltip: {
            callbacks: { label: (context) => `${context.dataset.label}: ${format(Number(context.raw))}` },
          },
        },
        scales: {
          [horizontal ? 'x' : 'y']: { beginAtZero: true, title: { display: true, text: unit } },
        },
      },
    };
    const chart = new Chart(canvas.current, config);
    return () => chart.destroy();
  }, [key]);
  if (labels.length === 0) {
    return (
      <figure className="chart" aria-labelledby={titleId}>
        <figcaption id={titleId}>{title}</figcaption>
        <p className="muted">{summary}</p>
      </figure>
    );
  }
  return (
    <figure className="chart" aria-labelledby={titleId}>
      <figcaption id={titleId}>{title}</figcaption>
      <div
        className="chart-box"
        style={{ height: horizontal ? `${Math.max(8, labels.length * 1.8 + 3)}rem` : '14rem' }}
      >
        <canvas ref={canvas} role="img" aria-label={`${title}. ${summary}`} />
      </div>
      <details>
        <summary>{t('The figures')}</summary>
        <table>
          <thead>
            <tr>
              <th scope="col">{horizontal ? t('Name') : t('Period')}</th>
              {series.map((item) => (
                <th scope="col" key={item.label}>
                  {item.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {labels.map((label, index) => (
              <tr key={label}>
                <th scope="row">{label}</th>
                {series.map((item) => (
                  <td key={item.label}>{format(item.values[index] ?? 0)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
