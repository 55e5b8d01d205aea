import { useEffect, useRef } from 'react';
import { Icon } from './icons.tsx';

/** True when the key event comes from a text field, where shortcuts must not fire. */
export function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el || !el.tagName) return false;
  return el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName);
}

/** Global keys: `g` then a view letter, `?` for help. `/` and Esc are handled by the views. */
export function useShortcuts(actions: { go: (key: string) => void; help: () => void }) {
  const ref = useRef(actions);
  ref.current = actions;
  useEffect(() => {
    let pendingG = 0;
    const onKey = (e: KeyboardEvent) => {
      if (e.metaKey || e.ctrlKey || e.altKey || isTyping(e.target)) return;
      if (e.key === '?') {
        e.preventDefault();
        ref.current.help();
        return;
      }
      if (e.key === 'g') {
        pendingG = Date.now();
        return;
      }
      if (pendingG && Date.now() - pendingG < 1500 && /^[ophsbft]$/.test(e.key)) {
        e.preventDefault();
        ref.current.go(e.key);
      }
      pendingG = 0;
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}

const KEYS: [string, string][] = [
  ['g o', 'Overview'],
  ['g p', 'Projects'],
  ['g b', 'Health (default branches, flaky jobs, durations)'],
  ['g f', 'Failures'],
  ['g t', 'Tests (failing and flaky tests)'],
  ['g h', 'AI history'],
  ['g s', 'Settings'],
  ['/', 'Filter projects, or search the open log'],
  ['↑ ↓', 'Move between projects; Enter expands'],
  ['n / N', 'Next / previous log match'],
  ['e / E', 'Next / previous error in a failed job’s log'],
  ['End / Home', 'Last / first line of the open log'],
  ['Esc', 'Close the pipeline panel or this help'],
  ['?', 'Show this help'],
];

/** The keyboard help dialog. */
export function ShortcutsDialog({ onClose }: { onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open && typeof d.showModal === 'function') d.showModal();
  }, []);
  return (
    <dialog
      ref={ref}
      className="shortcuts-dialog"
      onClose={onClose}
      aria-label="Keyboard shortcuts"
    >
      <div className="dialog-head">
        <h2>Keyboard shortcuts</h2>
        <button type="button" className="icon-button" onClick={onClose} aria-label="Close">
          <Icon.close />
        </button>
      </div>
      <dl>
        {KEYS.map(([k, v]) => (
          <div key={k}>
            <dt>
              {k.split(' ').map((part) => (
                <kbd key={part}>{part}</kbd>
              ))}
            </dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
    </dialog>
  );
}
