import type { ReactNode, SVGProps } from 'react';
import type { StatusKind } from '../lib/format.ts';
import { statusKind, statusLabel } from '../lib/format.ts';

type IconProps = SVGProps<SVGSVGElement> & { size?: number };

function Svg({ size = 16, children, ...rest }: IconProps & { children: ReactNode }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 16 16"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.6}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      {...rest}
    >
      {children}
    </svg>
  );
}

/** Icons drawn inline (no icon font: the CSP allows no external fonts). */
export const Icon = {
  check: (p: IconProps) => (
    <Svg {...p}>
      <path d="M4 8.5l2.5 2.5L12 5.5" />
    </Svg>
  ),
  cross: (p: IconProps) => (
    <Svg {...p}>
      <path d="M5 5l6 6M11 5l-6 6" />
    </Svg>
  ),
  running: (p: IconProps) => (
    <Svg {...p}>
      <circle cx="8" cy="8" r="2.2" fill="currentColor" stroke="none" />
    </Svg>
  ),
  slash: (p: IconProps) => (
    <Svg {...p}>
      <path d="M5 11l6-6" />
    </Svg>
  ),
  skip: (p: IconProps) => (
    <Svg {...p}>
      <path d="M5 5l4 3-4 3M11 5v6" />
    </Svg>
  ),
  gear: (p: IconProps) => (
    <Svg {...p}>
      <path d="M6 8l2 0M4 4.5h8M4 11.5h8" />
    </Svg>
  ),
  chevron: (p: IconProps) => (
    <Svg {...p}>
      <path d="M6 4l4 4-4 4" />
    </Svg>
  ),
  external: (p: IconProps) => (
    <Svg {...p}>
      <path d="M9 3h4v4M13 3L7.5 8.5M11 9.5V13H3V5h3.5" />
    </Svg>
  ),
  close: (p: IconProps) => (
    <Svg {...p}>
      <path d="M4 4l8 8M12 4l-8 8" />
    </Svg>
  ),
  search: (p: IconProps) => (
    <Svg {...p}>
      <circle cx="7" cy="7" r="4" />
      <path d="M10 10l3.5 3.5" />
    </Svg>
  ),
  sparkle: (p: IconProps) => (
    <Svg {...p}>
      <path d="M8 2v3M8 11v3M2 8h3M11 8h3M4 4l1.5 1.5M10.5 10.5L12 12M12 4l-1.5 1.5M5.5 10.5L4 12" />
    </Svg>
  ),
  sun: (p: IconProps) => (
    <Svg {...p}>
      <circle cx="8" cy="8" r="2.8" />
      <path d="M8 1.5v1.5M8 13v1.5M1.5 8H3M13 8h1.5M3.4 3.4l1 1M11.6 11.6l1 1M12.6 3.4l-1 1M4.4 11.6l-1 1" />
    </Svg>
  ),
  moon: (p: IconProps) => (
    <Svg {...p}>
      <path d="M13 9.5A5.5 5.5 0 016.5 3a5.5 5.5 0 106.5 6.5z" />
    </Svg>
  ),
  monitor: (p: IconProps) => (
    <Svg {...p}>
      <rect x="2" y="3" width="12" height="8" rx="1.2" />
      <path d="M6 14h4M8 11v3" />
    </Svg>
  ),
  terminal: (p: IconProps) => (
    <Svg {...p}>
      <path d="M3 4.5l3 3-3 3M8 11.5h5" />
    </Svg>
  ),
  trash: (p: IconProps) => (
    <Svg {...p}>
      <path d="M3 4.5h10M6.5 4.5V3h3v1.5M4.5 4.5l.6 8.5h5.8l.6-8.5" />
    </Svg>
  ),
  refresh: (p: IconProps) => (
    <Svg {...p}>
      <path d="M13 8a5 5 0 11-1.5-3.5M13 2.5v3h-3" />
    </Svg>
  ),
  arrowUp: (p: IconProps) => (
    <Svg {...p}>
      <path d="M8 13V3M4 7l4-4 4 4" />
    </Svg>
  ),
  arrowDown: (p: IconProps) => (
    <Svg {...p}>
      <path d="M8 3v10M4 9l4 4 4-4" />
    </Svg>
  ),
  /** A tray with an arrow into it: saving a file, unlike the plain arrows that move through matches. */
  download: (p: IconProps) => (
    <Svg {...p}>
      <path d="M8 2.5v7.5M4.5 6.5 8 10l3.5-3.5M2.5 11v2.5h11V11" />
    </Svg>
  ),
  copy: (p: IconProps) => (
    <Svg {...p}>
      <rect x="5.5" y="5.5" width="7.5" height="7.5" rx="1.2" />
      <path d="M3 10.5V3h7.5" />
    </Svg>
  ),
};

const STATUS_ICON: Record<StatusKind, (p: IconProps) => ReactNode> = {
  success: Icon.check,
  failed: Icon.cross,
  running: Icon.running,
  canceled: Icon.slash,
  skipped: Icon.skip,
  manual: Icon.gear,
  other: Icon.slash,
};

/** A round status icon in the status's colour, labelled for screen readers. */
export function StatusIcon({ status, size = 18 }: { status: string; size?: number }) {
  const kind = statusKind(status);
  const Glyph = STATUS_ICON[kind];
  return (
    <span
      className={`status-icon status-${kind}`}
      style={{ width: size, height: size }}
      role="img"
      aria-label={statusLabel(status)}
      title={statusLabel(status)}
    >
      <Glyph size={Math.round(size * 0.72)} />
    </span>
  );
}

/** The status in words beside its icon when the icon alone is a grey glyph (canceled, skipped, manual…). */
export function GreyStatusWord({ status }: { status: string }) {
  const kind = statusKind(status);
  if (kind === 'success' || kind === 'failed' || kind === 'running') return null;
  return <span className="status-word">{statusLabel(status)}</span>;
}

/** A status pill: icon and word. */
export function StatusBadge({ status }: { status: string }) {
  const kind = statusKind(status);
  return (
    <span className={`status-badge status-${kind}`} data-status={status}>
      <StatusIcon status={status} size={14} />
      {statusLabel(status)}
    </span>
  );
}
