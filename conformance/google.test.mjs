// google-auth-library, Google's own Node.js client, against the Google token emulator: the
// service-account JWT-bearer flow from the key file named by GOOGLE_APPLICATION_CREDENTIALS, as the
// standalone emulator prints it. The key's token_uri is the emulator's token endpoint; its
// /_emulator/ control paths are beside it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { GoogleAuth } from "google-auth-library";

const CLOUD_PLATFORM = "https://www.googleapis.com/auth/cloud-platform";
const GOOGLE_TOKEN_URL = "https://oauth2.googleapis.com/token";
const key = JSON.parse(readFileSync(process.env.GOOGLE_APPLICATION_CREDENTIALS, "utf8"));

// google-auth-library always posts the exchange to Google's token URL and signs that URL as the
// assertion's aud, whatever the key's token_uri (build/src/gtoken/getToken.js and jwsSign.js). A
// request interceptor on the client's transporter (its Gaxios instance) sends the request to the
// key's token_uri instead and changes nothing else: the emulator sees exactly what Google would.
function toKeyTokenURI(client, tokenURI = key.token_uri) {
  client.transporter.interceptors.request.add({
    resolved: async (opts) => {
      if (opts.url.href === GOOGLE_TOKEN_URL) {
        opts.url = new URL(tokenURI);
      }
      return opts;
    },
  });
  return client;
}

async function clientFor(options = {}) {
  const auth = new GoogleAuth({ scopes: [CLOUD_PLATFORM], ...options });
  return toKeyTokenURI(await auth.getClient());
}

async function control(method, path, body) {
  const resp = await fetch(new URL(`/_emulator/${path}`, key.token_uri), {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!resp.ok) {
    assert.fail(`${method} /_emulator/${path}: ${resp.status} ${await resp.text()}`);
  }
  return resp.status === 204 ? undefined : resp.json();
}

test("the key file is a service account key whose token_uri is the emulator", () => {
  assert.equal(key.type, "service_account");
  assert.match(key.token_uri, /^http:\/\/127\.0\.0\.1:\d+\//);
  assert.ok(key.client_email && key.private_key && key.private_key_id);
});

test("application default credentials get an access token for the key's service account", async () => {
  const client = await clientFor();
  const { token } = await client.getAccessToken();
  assert.ok(token, "no access token");
  const issued = await control("GET", "issued");
  const mine = issued.find((t) => t.accessToken === token);
  assert.ok(mine, `the emulator did not issue ${token}`);
  assert.equal(mine.clientEmail, key.client_email);
  assert.equal(mine.scope, CLOUD_PLATFORM);
  assert.ok(client.credentials.expiry_date > Date.now(), "the token carries its expiry");
});

test("an assertion for another audience is refused, as Google refuses it", async () => {
  const client = await clientFor({ clientOptions: { additionalClaims: { aud: "https://example.com/token" } } });
  await assert.rejects(client.getAccessToken(), (err) => err.message.startsWith("invalid_grant:") && err.status === 400);
});

test("a scope Google does not know is refused", async () => {
  const client = await clientFor({ scopes: ["https://www.googleapis.com/auth/not-a-scope"] });
  await assert.rejects(client.getAccessToken(), (err) => err.message.startsWith("invalid_scope:"));
});

test("an assertion signed by a key the emulator did not issue is refused", async () => {
  const other = await control("POST", "service-accounts");
  const forged = { ...key, private_key: other.private_key };
  const client = await clientFor({ credentials: forged });
  await assert.rejects(client.getAccessToken(), (err) => err.message === "invalid_grant: Invalid JWT Signature.");
});

test("an injected 503 is retried by the library and the token still comes", async () => {
  const before = (await control("GET", "issued")).length;
  await control("POST", "faults", { count: 1, status: 503 });
  const { token } = await (await clientFor()).getAccessToken();
  assert.ok(token);
  assert.equal((await control("GET", "issued")).length, before + 1);
});

test("an injected OAuth2 error reaches the caller, with the request body when asked to echo it", async () => {
  await control("POST", "faults", { count: 1, status: 400, error: "invalid_grant", errorDescription: "account disabled", echoBody: true });
  await assert.rejects((await clientFor()).getAccessToken(), (err) =>
    err.message.startsWith("invalid_grant: account disabled; request body: ") &&
    err.message.includes("grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer"));
});
