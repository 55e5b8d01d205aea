import { useEffect, useState } from 'react';
import type {
  GroupResponse,
  SettingsResponse,
  SettingsUpdateResponse,
  SiblingGroupResponse,
  SinceCheckResponse,
  SubgroupResponse,
  SystemPromptResponse,
  SystemPromptUpdateResponse,
} from '../../../server/contract.ts';
import { api, errorMessage } from '../../api/client.ts';
import { useFeedState } from '../../app-context.ts';
import { ErrorBox, Skeleton, Spinner } from '../../components/feedback.tsx';
import { Icon } from '../../components/icons.tsx';
import { useAsync } from '../../lib/hooks.ts';
import { SINCE_PRESETS, describeSince } from '../../lib/since.ts';
import { ProviderSettings } from './provider-settings.tsx';
import { NotificationSettingsSection } from './notification-settings.tsx';

interface GroupContext {
  group: GroupResponse;
  subgroups: SubgroupResponse[];
  siblings: SiblingGroupResponse[];
  parent: GroupResponse | null;
}

type SinceCheck = { ok: true } | { ok: false; error: string | null };

/**
 * Whether `since` is a window the service accepts, by asking it (GET /api/settings/since) a moment
 * after typing stops: the rule lives once, on the server. Presets and the saved value are known
 * good; while an answer is pending the window counts as not valid yet, without a message.
 */
function useSinceCheck(since: string, saved: string): SinceCheck {
  const value = since.trim();
  const known = value === saved || (SINCE_PRESETS as readonly string[]).includes(value);
  const [answer, setAnswer] = useState<SinceCheckResponse | null>(null);
  useEffect(() => {
    if (known) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      api
        .get<SinceCheckResponse>('/settings/since', { value }, controller.signal)
        .then(setAnswer, (err: unknown) => {
          if (!controller.signal.aborted)
            setAnswer({ since: value, valid: false, error: errorMessage(err) });
        });
    }, 150);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [value, known]);
  if (known) return { ok: true };
  if (answer?.since !== value) return { ok: false, error: null };
  return answer.valid ? { ok: true } : { ok: false, error: answer.error };
}

async function loadGroupContext(path: string, signal: AbortSignal): Promise<GroupContext> {
  const enc = encodeURIComponent(path);
  const group = await api.get<GroupResponse>(`/groups/${enc}`, undefined, signal);
  const [subgroups, siblings, parent] = await Promise.all([
    api.get<SubgroupResponse[]>(`/groups/${enc}/subgroups`, undefined, signal).catch(() => []),
    group.parent_id
      ? api
          .get<SiblingGroupResponse[]>(`/groups/parent/${group.parent_id}`, undefined, signal)
          .catch(() => [])
      : Promise.resolve([]),
    group.parent_id
      ? api.get<GroupResponse>(`/groups/${group.parent_id}`, undefined, signal).catch(() => null)
      : Promise.resolve(null),
  ]);
  return { group, subgroups, siblings: siblings.filter((s) => s.id !== group.id), parent };
}

function GroupPicker({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  const [browse, setBrowse] = useState(value);
  useEffect(() => setBrowse(value), [value]);
  const [ctx, reload] = useAsync((signal) => loadGroupContext(browse, signal), [browse]);
  const pick = (path: string) => {
    onChange(path);
    setBrowse(path);
  };
  const parentPath =
    ctx.data?.parent?.full_path ?? ctx.data?.group.full_path.split('/').slice(0, -1).join('/');
  return (
    <div className="group-picker">
      {ctx.status === 'error' && (
        <ErrorBox
          title={
            ctx.httpStatus === 404 ? `Group “${browse}” was not found` : 'Cannot look up the group'
          }
          message={ctx.error}
          onRetry={reload}
        />
      )}
      {ctx.status === 'loading' && !ctx.data && <Skeleton height={80} />}
      {ctx.data && (
        <div className="group-browser" aria-busy={ctx.status === 'loading'}>
          <div className="group-current">
            <div>
              <span className="muted small">Browsing</span>
              <strong>{ctx.data.group.full_path}</strong>
              {ctx.data.group.description && (
                <p className="muted small">{ctx.data.group.description}</p>
              )}
            </div>
            {ctx.data.group.parent_id && parentPath && (
              <button type="button" className="btn btn-small" onClick={() => setBrowse(parentPath)}>
                Up to {parentPath}
              </button>
            )}
          </div>
          <div className="group-columns">
            <div>
              <h4>Subgroups</h4>
              {ctx.data.subgroups.length === 0 ? (
                <p className="muted small">No subgroups.</p>
              ) : (
                <ul className="group-list">
                  {ctx.data.subgroups.map((g) => (
                    <li key={g.id}>
                      <button
                        type="button"
                        className={g.full_path === value ? 'selected' : ''}
                        onClick={() => pick(g.full_path)}
                      >
                        <span>{g.name}</span>
                        <span className="muted small">{g.full_path}</span>
                      </button>
                    </li>
                  ))}
                </ul>
              )}
            </div>
            <div>
              <h4>{ctx.data.group.parent_id ? 'Sibling groups' : 'Siblings'}</h4>
              {ctx.data.siblings.length === 0 ? (
                <p className="muted small">
                  {ctx.data.group.parent_id
                    ? 'No sibling groups.'
                    : 'A top-level group has no siblings.'}
                </p>
              ) : (
                <ul className="group-list">
                  {ctx.data.siblings.map((g) => {
                    const full = parentPath ? `${parentPath}/${g.path}` : g.path;
                    return (
                      <li key={g.id}>
                        <button
                          type="button"
                          className={full === value ? 'selected' : ''}
                          onClick={() => pick(full)}
                        >
                          <span>{g.name}</span>
                          <span className="muted small">{full}</span>
                        </button>
                      </li>
                    );
                  })}
                </ul>
              )}
            </div>
          </div>
          {ctx.data.group.full_path !== value && (
            <button
              type="button"
              className="btn btn-small btn-primary group-use"
              onClick={() => pick(ctx.data!.group.full_path)}
            >
              Use {ctx.data.group.full_path}
            </button>
          )}
        </div>
      )}
    </div>
  );
}

function ScopeSettings({
  settings,
  onSaved,
}: {
  settings: SettingsResponse;
  onSaved: (s: SettingsUpdateResponse) => void;
}) {
  const [group, setGroup] = useState(settings.group);
  const [since, setSince] = useState(settings.since);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const sinceCheck = useSinceCheck(since, settings.since);
  const dirty = group.trim() !== settings.group || since.trim() !== settings.since;
  const save = async () => {
    setSaving(true);
    setError(null);
    setSaved(false);
    try {
      const res = await api.post<SettingsUpdateResponse>('/settings', {
        group: group.trim(),
        since: since.trim(),
      });
      onSaved(res);
      setSaved(true);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setSaving(false);
    }
  };
  return (
    <form
      className="card settings-card"
      onSubmit={(e) => {
        e.preventDefault();
        if (sinceCheck.ok && group.trim() && dirty) void save();
      }}
      aria-labelledby="scope-title"
    >
      <h2 id="scope-title" className="card-title">
        What to summarise
      </h2>
      <p className="muted small">
        GitLab: <code>{settings.forgeUrl}</code>. Pipelines of the group and all its subgroups are
        included.
      </p>
      <div className="field">
        <label className="field-label" htmlFor="settings-group">
          Group
        </label>
        <input
          type="text"
          value={group}
          onChange={(e) => {
            setGroup(e.target.value);
            setSaved(false);
          }}
          placeholder="group/subgroup or a numeric id"
          spellCheck={false}
          autoComplete="off"
          name="group"
          id="settings-group"
          aria-describedby="settings-group-hint"
        />
        <span className="field-hint" id="settings-group-hint">
          Type a path, or browse below.
        </span>
      </div>
      <GroupPicker
        value={group.trim() || settings.group}
        onChange={(g) => {
          setGroup(g);
          setSaved(false);
        }}
      />
      <fieldset className="field">
        <legend className="field-label">Time window</legend>
        <div className="segmented wrap" role="group" aria-label="Time window presets">
          {SINCE_PRESETS.map((p) => (
            <button
              key={p}
              type="button"
              aria-pressed={since === p}
              onClick={() => {
                setSince(p);
                setSaved(false);
              }}
            >
              {p}
            </button>
          ))}
        </div>
        <div className="since-row">
          <input
            type="text"
            value={since}
            onChange={(e) => {
              setSince(e.target.value);
              setSaved(false);
            }}
            aria-label="Time window"
            aria-invalid={!sinceCheck.ok && sinceCheck.error !== null}
            aria-describedby="since-hint"
            name="since"
            spellCheck={false}
          />
          <span
            id="since-hint"
            className={`field-hint${!sinceCheck.ok && sinceCheck.error ? ' field-error' : ''}`}
          >
            {sinceCheck.ok
              ? `Pipelines created in the last ${describeSince(since.trim())}.`
              : (sinceCheck.error ?? 'Checking…')}
          </span>
        </div>
      </fieldset>
      {error && <ErrorBox title="Settings were not saved" message={error} />}
      <div className="form-actions">
        <button
          type="submit"
          className="btn btn-primary"
          disabled={!dirty || !sinceCheck.ok || !group.trim() || saving}
        >
          {saving && <Spinner label="Saving" />} Save and reload
        </button>
        {dirty && (
          <button
            type="button"
            className="btn"
            onClick={() => {
              setGroup(settings.group);
              setSince(settings.since);
            }}
          >
            Discard
          </button>
        )}
        {saved && !dirty && (
          <span className="saved-note" role="status">
            <Icon.check size={14} /> Saved — the dashboard is reloading from GitLab.
          </span>
        )}
      </div>
    </form>
  );
}

function SystemPromptEditor() {
  const [state, reload, setData] = useAsync(
    (signal) => api.get<SystemPromptResponse>('/ai/system-prompt', undefined, signal),
    [],
  );
  const [draft, setDraft] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const prompt = state.data?.prompt ?? '';
  const value = draft ?? prompt;
  const put = async (body: { prompt: string } | null, okText: string) => {
    setBusy(true);
    setMessage(null);
    try {
      const res = body
        ? await api.request<SystemPromptUpdateResponse>('/ai/system-prompt', {
            method: 'PUT',
            body,
          })
        : await api.request<SystemPromptUpdateResponse>('/ai/system-prompt', {
            method: 'DELETE',
          });
      setData({ prompt: res.prompt, isDefault: body === null });
      setDraft(null);
      setMessage({ kind: 'ok', text: okText });
    } catch (err) {
      setMessage({ kind: 'error', text: errorMessage(err) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="card settings-card" aria-labelledby="prompt-title">
      <h2 id="prompt-title" className="card-title">
        AI system prompt
      </h2>
      <p className="muted small">
        The instructions every analysis starts with. Changes apply to new analyses.
      </p>
      {state.status === 'error' && !state.data ? (
        <ErrorBox title="Cannot load the system prompt" message={state.error} onRetry={reload} />
      ) : (
        <>
          <textarea
            className="prompt-editor"
            value={value}
            onChange={(e) => setDraft(e.target.value)}
            rows={10}
            spellCheck={false}
            aria-label="System prompt"
            disabled={!state.data}
          />
          <div className="form-actions">
            <button
              type="button"
              className="btn btn-primary"
              disabled={busy || draft === null || draft === prompt || !draft.trim()}
              onClick={() => void put({ prompt: value }, 'System prompt saved.')}
            >
              Save prompt
            </button>
            <button
              type="button"
              className="btn"
              disabled={busy || draft === null}
              onClick={() => setDraft(null)}
            >
              Revert edits
            </button>
            <button
              type="button"
              className="btn"
              disabled={busy}
              onClick={() => void put(null, 'Reset to the default prompt.')}
            >
              Reset to default
            </button>
            {message && (
              <span className={message.kind === 'ok' ? 'saved-note' : 'field-error'} role="status">
                {message.text}
              </span>
            )}
          </div>
        </>
      )}
    </section>
  );
}

/** Settings: group and window (validated like the server), system prompt, AI provider. */
export default function SettingsView() {
  const feed = useFeedState();
  const [state, reload, setData] = useAsync(
    (signal) => api.get<SettingsResponse>('/settings', undefined, signal),
    [],
  );
  // When another window changes the settings, the feed's status follows; reload ours then.
  const live = feed.summary?.status;
  useEffect(() => {
    if (
      state.status === 'ok' &&
      live &&
      (live.group !== state.data.group || live.since !== state.data.since)
    )
      reload();
  }, [live?.group, live?.since]);
  return (
    <div className="settings-view">
      <h1 className="view-title">Settings</h1>
      {state.status === 'error' && !state.data ? (
        <ErrorBox title="Cannot load settings" message={state.error} onRetry={reload} />
      ) : !state.data ? (
        <Skeleton height={200} />
      ) : (
        <ScopeSettings
          settings={state.data}
          onSaved={(res) => setData({ ...state.data!, group: res.group, since: res.since })}
        />
      )}
      <div className="settings-columns">
        <SystemPromptEditor />
        <ProviderSettings />
      </div>
      <NotificationSettingsSection />
    </div>
  );
}
