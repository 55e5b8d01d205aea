import { useState } from 'react';
import type { ProviderStatus, ProviderUpdateRequest } from '../../../server/contract.ts';
import { getProviderStatus, updateProvider } from '../../api/ai.ts';
import { errorMessage } from '../../api/client.ts';
import { ErrorBox, Skeleton, Spinner } from '../../components/feedback.tsx';
import { Icon } from '../../components/icons.tsx';
import { useAsync } from '../../lib/hooks.ts';

const PROVIDER_LABELS: Record<string, string> = {
  offline: 'Offline (built in)',
  openai: 'OpenAI-compatible',
  anthropic: 'Anthropic',
};

type Field = 'provider' | 'model' | 'baseUrl' | 'apiKey' | 'form';

/** Which field a service validation message is about, so it shows next to that field. */
export function fieldOfError(message: string): Field {
  if (/'provider'/.test(message)) return 'provider';
  if (/'model'/.test(message)) return 'model';
  if (/'baseUrl'|base URL/i.test(message)) return 'baseUrl';
  if (/'apiKey'|API key/i.test(message)) return 'apiKey';
  return 'form';
}

function keyState(status: ProviderStatus): string {
  if (status.apiKeySet) {
    switch (status.apiKeySource) {
      case 'environment':
        return 'key set (AI_API_KEY in the service’s environment)';
      case 'secret-store':
        return `key set (kept in ${status.secretStore ?? 'the keychain'})`;
      case 'memory':
        return 'key set (no keychain: it lasts until the service restarts)';
      default:
        return 'key set';
    }
  }
  return status.secretStore
    ? `no key · a key saved here is kept in ${status.secretStore}`
    : 'no key · no keychain: a key saved here lasts until the service restarts';
}

function ProviderForm({
  status,
  onSaved,
}: {
  status: ProviderStatus;
  onSaved: (s: ProviderStatus) => void;
}) {
  const [provider, setProvider] = useState(status.provider);
  const [model, setModel] = useState(status.model);
  const [baseUrl, setBaseUrl] = useState(status.baseUrl);
  const [apiKey, setApiKey] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ field: Field; message: string } | null>(null);
  const [saved, setSaved] = useState<string | null>(null);

  const switching = provider !== status.provider;
  const remote = provider !== 'offline';
  const update: ProviderUpdateRequest = {};
  if (switching) update.provider = provider;
  if (remote) {
    // After a switch, empty fields mean the new provider's defaults (the service resets them).
    if (switching ? model.trim() !== '' : model.trim() !== status.model)
      update.model = model.trim();
    if (switching ? baseUrl.trim() !== '' : baseUrl.trim() !== status.baseUrl)
      update.baseUrl = baseUrl.trim();
    if (apiKey.trim()) update.apiKey = apiKey.trim();
  }
  const dirty = Object.keys(update).length > 0;

  const reset = (s: ProviderStatus) => {
    setProvider(s.provider);
    setModel(s.model);
    setBaseUrl(s.baseUrl);
    setApiKey('');
  };
  const send = async (body: ProviderUpdateRequest, okText: string) => {
    setBusy(true);
    setError(null);
    setSaved(null);
    try {
      const next = await updateProvider(body);
      onSaved(next);
      reset(next);
      setSaved(okText);
    } catch (err) {
      const message = errorMessage(err);
      setError({ field: fieldOfError(message), message });
    } finally {
      setBusy(false);
    }
  };
  const edit =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setSaved(null);
      setError(null);
    };
  const fieldError = (field: Field, id: string) =>
    error?.field === field ? (
      <span className="field-error" id={id} role="alert">
        {error.message}
      </span>
    ) : null;
  const pinned = status.pinnedByEnvironment;

  return (
    <form
      className="provider-form"
      aria-label="AI provider settings"
      onSubmit={(e) => {
        e.preventDefault();
        if (dirty && !busy && !pinned) void send(update, 'Provider settings saved.');
      }}
    >
      {pinned && (
        <p className="provider-pinned" role="note">
          <Icon.gear size={14} /> The service’s environment chose this provider (AI_PROVIDER, flags
          or --demo), so it cannot be changed here. Change it where the service is started.
        </p>
      )}
      <fieldset className="provider-fields" disabled={pinned || busy}>
        <div className="field">
          <span className="field-label" id="provider-choice-label">
            Provider
          </span>
          <div className="segmented wrap" role="radiogroup" aria-labelledby="provider-choice-label">
            {status.providers.map((p) => (
              <button
                key={p}
                type="button"
                role="radio"
                aria-checked={provider === p}
                onClick={() => {
                  edit(setProvider)(p);
                  // Another provider's model and endpoint make no sense for this one.
                  setModel(p === status.provider ? status.model : '');
                  setBaseUrl(p === status.provider ? status.baseUrl : '');
                }}
              >
                {PROVIDER_LABELS[p] ?? p}
              </button>
            ))}
          </div>
          {fieldError('provider', 'provider-error')}
          {!remote && (
            <span className="field-hint">
              Analyses use the built-in analyser: no key, nothing leaves this machine.
            </span>
          )}
        </div>
        {remote && (
          <>
            <div className="field">
              <label className="field-label" htmlFor="provider-model">
                Model
              </label>
              <input
                type="text"
                id="provider-model"
                name="model"
                value={model}
                onChange={(e) => edit(setModel)(e.target.value)}
                placeholder="the provider’s default"
                spellCheck={false}
                autoComplete="off"
                aria-invalid={error?.field === 'model'}
                aria-describedby={error?.field === 'model' ? 'provider-model-error' : undefined}
              />
              {fieldError('model', 'provider-model-error')}
            </div>
            <div className="field">
              <label className="field-label" htmlFor="provider-base-url">
                Endpoint
              </label>
              <input
                type="text"
                inputMode="url"
                id="provider-base-url"
                name="baseUrl"
                value={baseUrl}
                onChange={(e) => edit(setBaseUrl)(e.target.value)}
                placeholder="the provider’s default"
                spellCheck={false}
                autoComplete="off"
                aria-invalid={error?.field === 'baseUrl'}
                aria-describedby={
                  error?.field === 'baseUrl' ? 'provider-base-url-error' : 'provider-base-url-hint'
                }
              />
              {fieldError('baseUrl', 'provider-base-url-error') ?? (
                <span className="field-hint" id="provider-base-url-hint">
                  {provider === 'openai'
                    ? 'Any chat-completions endpoint, e.g. Ollama at http://127.0.0.1:11434/v1.'
                    : 'Leave empty for Anthropic’s own API.'}
                </span>
              )}
            </div>
            <div className="field">
              <label className="field-label" htmlFor="provider-api-key">
                API key
              </label>
              <div className="key-row">
                <input
                  type="password"
                  id="provider-api-key"
                  name="apiKey"
                  value={apiKey}
                  onChange={(e) => edit(setApiKey)(e.target.value)}
                  placeholder={
                    !switching && status.apiKeySet ? 'enter a new key to replace it' : 'paste a key'
                  }
                  autoComplete="new-password"
                  spellCheck={false}
                  aria-invalid={error?.field === 'apiKey'}
                  aria-describedby="provider-key-state"
                />
                {!switching && status.apiKeySet && status.apiKeySource !== 'environment' && (
                  <button
                    type="button"
                    className="btn btn-small"
                    onClick={() => void send({ apiKey: null }, 'Key removed.')}
                  >
                    Remove key
                  </button>
                )}
              </div>
              <span className="field-hint" id="provider-key-state" data-testid="provider-key-state">
                {switching
                  ? 'Keys are kept per provider; save to see whether this one has a key.'
                  : keyState(status)}
              </span>
              {fieldError('apiKey', 'provider-key-error')}
            </div>
            {status.fallbackToOffline && (
              <p className="field-hint">
                When the provider cannot be reached, analyses fall back to the offline analyser and
                say so.
              </p>
            )}
          </>
        )}
      </fieldset>
      {error?.field === 'form' && (
        <ErrorBox title="Provider settings were not saved" message={error.message} />
      )}
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={!dirty || busy || pinned}>
          {busy && <Spinner label="Saving" />} Save provider
        </button>
        {dirty && !pinned && (
          <button
            type="button"
            className="btn"
            onClick={() => {
              reset(status);
              setError(null);
            }}
          >
            Discard
          </button>
        )}
        {saved && (
          <span className="saved-note" role="status">
            <Icon.check size={14} /> {saved}
          </span>
        )}
      </div>
    </form>
  );
}

function CurrentProvider({ status }: { status: ProviderStatus }) {
  return (
    <dl className="provider-grid" data-testid="provider-status">
      <div>
        <dt>In use</dt>
        <dd>
          {status.provider === 'offline'
            ? 'Offline analyser (built in)'
            : (PROVIDER_LABELS[status.provider] ?? status.provider)}
        </dd>
      </div>
      {status.model && (
        <div>
          <dt>Model</dt>
          <dd>{status.model}</dd>
        </div>
      )}
      {status.baseUrl && (
        <div>
          <dt>Endpoint</dt>
          <dd>
            <code>{status.baseUrl}</code>
          </dd>
        </div>
      )}
      <div>
        <dt>API key</dt>
        <dd>
          {status.provider === 'offline' ? 'not needed' : status.apiKeySet ? 'key set' : 'no key'}
        </dd>
      </div>
    </dl>
  );
}

/** Settings card: the AI provider in use and a form to change it (unless the environment pins it). */
export function ProviderSettings() {
  const [state, reload, setData] = useAsync((signal) => getProviderStatus(signal), []);
  return (
    <section className="card settings-card" aria-labelledby="provider-title">
      <h2 id="provider-title" className="card-title">
        AI provider
      </h2>
      {state.status === 'loading' && !state.data && <Skeleton height={40} />}
      {state.status === 'error' && (
        <ErrorBox title="Cannot read the provider status" message={state.error} onRetry={reload} />
      )}
      {state.status === 'ok' && state.data === null && (
        <p className="muted">
          This service does not report its AI provider. Analyses still work if AI is configured.
        </p>
      )}
      {state.data && (
        <>
          <CurrentProvider status={state.data} />
          <ProviderForm status={state.data} onSaved={setData} />
        </>
      )}
    </section>
  );
}
