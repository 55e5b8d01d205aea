// The test tenant's directory: its ids, the hosts it answers on and its app registrations.

/** The tenant every test signs in to. */
export const ENTRA_TENANT = {
  id: '5b1a3f0e-6c2d-4e8f-9a7b-1c2d3e4f5a6b',
  domain: 'contoso.onmicrosoft.com',
};

/** Entra sign-in hosts the test IdP answers for (public, legacy alias, US Gov, China, CIAM). */
export const ENTRA_TEST_HOSTS = [
  'login.microsoftonline.com',
  'login.windows.net',
  'login.microsoftonline.us',
  'login.partner.microsoftonline.cn',
  'contoso.ciamlogin.com',
];

/** The audience a federated token must carry for Entra (workload identity federation). */
export const FEDERATION_AUDIENCE = 'api://AzureADTokenExchange';

/** App registrations of the test tenant. */
export const ENTRA_APPS = {
  /** Confidential daemon with a client secret. */
  daemon: { id: '11111111-1111-4111-8111-111111111111', secret: 'Qx8~daemon.secret-value' },
  /** Confidential daemon with a certificate credential (set by `registerCertificate`). */
  certDaemon: { id: '22222222-2222-4222-8222-222222222222' },
  /** Daemon trusting tokens of a CI issuer (set by `federate`). */
  federated: { id: '33333333-3333-4333-8333-333333333333' },
  /** Public client for user sign-ins; redirect URI http://localhost (any port, exact path). */
  cli: { id: '44444444-4444-4444-8444-444444444444', redirect: 'http://localhost' },
} as const;
