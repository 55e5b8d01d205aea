import { useState } from 'react';
import { apiUrl } from '../api/client.ts';

function initials(name: string): string {
  const parts = name.trim().split(/\s+/);
  return (
    (parts[0]?.[0] ?? '?') + (parts.length > 1 ? (parts[parts.length - 1]?.[0] ?? '') : '')
  ).toUpperCase();
}

function hue(name: string): number {
  let h = 0;
  for (const ch of name) h = (h * 31 + ch.charCodeAt(0)) % 360;
  return h;
}

/** A user's avatar through the service's proxy (GitLab avatars are cross-origin); initials on failure. */
export function Avatar({
  name,
  url,
  size = 28,
}: {
  name: string;
  url?: string | null;
  size?: number;
}) {
  const [failed, setFailed] = useState(false);
  const style = { width: size, height: size, fontSize: Math.round(size * 0.4) };
  if (!url || failed) {
    return (
      <span
        className="avatar avatar-initials"
        style={{ ...style, background: `hsl(${hue(name)} 45% 52%)` }}
        aria-hidden="true"
      >
        {initials(name)}
      </span>
    );
  }
  return (
    <img
      className="avatar"
      src={apiUrl('/avatar', { url })}
      alt=""
      width={size}
      height={size}
      style={style}
      loading="lazy"
      onError={() => setFailed(true)}
    />
  );
}
