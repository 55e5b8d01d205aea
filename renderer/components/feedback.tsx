import type { ReactNode } from 'react';
import { Icon } from './icons.tsx';

/** An error from the API, in its own words, with a way forward. */
export function ErrorBox({
  title = 'Something went wrong',
  message,
  onRetry,
  children,
}: {
  title?: string;
  message: string;
  onRetry?: () => void;
  children?: ReactNode;
}) {
  return (
    <div className="error-box" role="alert">
      <div className="error-box-icon">
        <Icon.cross size={16} />
      </div>
      <div className="error-box-body">
        <strong>{title}</strong>
        <p>{message}</p>
        {children}
      </div>
      {onRetry && (
        <button type="button" className="btn" onClick={onRetry}>
          <Icon.refresh size={14} /> Retry
        </button>
      )}
    </div>
  );
}

/** What to show where there is nothing yet, and what to do about it. */
export function EmptyState({
  title,
  children,
  action,
}: {
  title: string;
  children?: ReactNode;
  action?: ReactNode;
}) {
  return (
    <div className="empty-state">
      <div className="empty-state-art" aria-hidden="true">
        <svg width="56" height="56" viewBox="0 0 56 56" fill="none">
          <rect x="4" y="10" width="48" height="36" rx="6" stroke="currentColor" strokeWidth="2" />
          <path
            d="M12 36l8-10 7 6 8-12 9 16"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        </svg>
      </div>
      <h2>{title}</h2>
      {children && <div className="empty-state-text">{children}</div>}
      {action}
    </div>
  );
}

/** A grey placeholder block while data loads. */
export function Skeleton({
  height = 16,
  width = '100%',
}: {
  height?: number;
  width?: number | string;
}) {
  return <div className="skeleton" style={{ height, width }} aria-hidden="true" />;
}

/** A card of `rows` placeholder bars while a list loads. */
export function SkeletonCard({ rows, height }: { rows: number; height: number }) {
  return (
    <div className="card">
      {Array.from({ length: rows }, (_, i) => (
        <Skeleton key={i} height={height} />
      ))}
    </div>
  );
}

/** A small spinner with an accessible label. */
export function Spinner({ label = 'Loading' }: { label?: string }) {
  return <span className="spinner" role="status" aria-label={label} />;
}
