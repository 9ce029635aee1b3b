// `pds auth login|status|token|logout`: the credential of a profile. The definitions: plain data, no code.
import { verb, type NounDef } from '../../lib/verbs/verb.js';

/** The noun: what `pds auth --help` says of it (index.ts adds its verbs). */
export const noun = {
  name: 'auth',
  description: 'sign in (browser or API token), show, print or forget the credential',
  examples: [['echo "$TOKEN" | pds auth login --with-token'], ['pds auth status']],
} satisfies Omit<NounDef, 'verbs'>;

export const login = verb({
  name: 'login',
  dryRun: { none: 'it signs in and saves the credential; `pds auth status` checks one without saving anything' },
  description:
    'sign in and save the credential in the profile (with --api-url, the URL too); on a terminal it asks how',
  flags: {
    web: { type: 'boolean', help: 'sign in with a browser (OAuth 2.1 with PKCE); BROWSER names the browser command' },
    browser: { type: 'boolean', negated: true, help: 'with --web: print the URL to open instead of opening a browser' },
    oauthIssuer: {
      type: 'string',
      value: 'url',
      help: 'with --web: the authorization server, instead of asking the service',
    },
    clientId: { type: 'string', value: 'id', help: 'with --web: a registered client id, instead of registering one' },
    withToken: { type: 'boolean', help: 'read an API token from stdin' },
    insecureStorage: {
      type: 'boolean',
      help: "keep the credential in the config file (mode 0600) instead of the system's keychain",
    },
    token: { type: 'string', value: 'token', help: 'the token itself (shells keep history: prefer --with-token)' },
  },
  allowsNewProfile: true,
  replacesBrokenConfig: true,
  extraArguments: {
    secret: true,
    details: [
      'to sign in with a token: `pds auth login --with-token < token.txt` (read from stdin), or `pds auth login --token <token>` (shells keep it in their history)',
    ],
  },
  examples: [
    ['pds auth login', 'on a terminal: asks how', 'a terminal'],
    ['echo "$TOKEN" | pds auth login --with-token --api-url https://pds.example.com', undefined, 'a real service'],
    ['pds --profile staging auth login --with-token < token.txt', 'a second profile'],
  ],
});

export const status = verb({
  name: 'status',
  description:
    'show the base URL, the kind of credential, the masked token and its expiry, its scope and the default project',
  scripting: ['jq', 'fields'],
  examples: [['pds auth status'], ['pds auth status --json']],
});

export const token = verb({
  name: 'token',
  description: "print a valid token (PDS_TOKEN, else the profile's, refreshed if needed) on stdout, for other tools",
  examples: [['curl -H "Authorization: Bearer $(pds auth token)" "$PDS_API_URL/v1/projects"']],
});

export const list = verb({
  name: 'list',
  aliases: ['ls'],
  description: 'list the profiles: URL, kind of credential, default project; the current one marked',
  scripting: ['jq', 'fields'],
  examples: [['pds auth list'], ['pds auth list --format csv']],
});

export const logout = verb({
  name: 'logout',
  dryRun: 'honoured',
  description: "revoke a browser sign-in at the server and forget the profile's credential (other settings stay)",
  examples: [['pds auth logout'], ['pds --profile staging auth logout']],
});
