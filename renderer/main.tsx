import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { api } from './api/client.ts';
import { LiveFeed } from './api/live-feed.ts';
import { App } from './app.tsx';
import { FeedContext } from './app-context.ts';
import './styles.css';

// One EventSource per window: the feed is created once here and shared through context.
const feed = new LiveFeed({ api });
feed.start();
window.addEventListener('pagehide', () => feed.stop());
window.addEventListener('pageshow', (e) => {
  if (e.persisted) feed.start();
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <FeedContext value={feed}>
      <App />
    </FeedContext>
  </StrictMode>,
);
