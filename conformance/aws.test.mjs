// The official AWS SDK for JavaScript v3 clients against the AWS emulator, configured only through
// the environment the standalone emulator prints (AWS_ENDPOINT_URL_ECR,
// AWS_ENDPOINT_URL_BEDROCK_AGENTCORE_CONTROL, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION),
// exactly as a user's script would be. The emulator's /_emulator/ control paths seed and break it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ECRClient, GetAuthorizationTokenCommand } from "@aws-sdk/client-ecr";
import {
  BedrockAgentCoreControlClient,
  GetCodeInterpreterCommand,
  ResourceNotFoundException,
  ThrottlingException,
} from "@aws-sdk/client-bedrock-agentcore-control";

const env = process.env;
const region = env.AWS_REGION;
const ecrURL = env.AWS_ENDPOINT_URL_ECR;
const agentCoreURL = env.AWS_ENDPOINT_URL_BEDROCK_AGENTCORE_CONTROL;

// control calls one of the emulator's unauthenticated /_emulator/ paths.
async function control(baseURL, method, path, body) {
  const resp = await fetch(new URL(`/_emulator/${path}`, baseURL), {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!resp.ok) {
    assert.fail(`${method} /_emulator/${path}: ${resp.status} ${await resp.text()}`);
  }
  return resp.status === 204 ? undefined : resp.json();
}

const wrongSecret = { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: "not-the-secret" };
const unknownKey = { accessKeyId: "AKIAUNKNOWNKEY000001", secretAccessKey: env.AWS_SECRET_ACCESS_KEY };

test("the environment names every setting", () => {
  for (const name of ["AWS_ENDPOINT_URL_ECR", "AWS_ENDPOINT_URL_BEDROCK_AGENTCORE_CONTROL",
    "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_REGION"]) {
    assert.ok(env[name], `${name} is not set`);
  }
});

test("ECR GetAuthorizationToken: a docker login for the default registry, valid 12 hours", async () => {
  const before = Date.now();
  const out = await new ECRClient({}).send(new GetAuthorizationTokenCommand({}));
  assert.equal(out.authorizationData.length, 1);
  const [data] = out.authorizationData;
  const [user, password] = Buffer.from(data.authorizationToken, "base64").toString().split(/:(.*)/s);
  assert.equal(user, "AWS");
  assert.ok(password.length > 0);
  assert.ok(data.expiresAt instanceof Date, `expiresAt is ${data.expiresAt}`);
  const hours = (data.expiresAt.getTime() - before) / 3600e3;
  assert.ok(hours > 11.9 && hours < 12.1, `expires in ${hours} h`);
  assert.match(data.proxyEndpoint, new RegExp(`^https://\\d{12}\\.dkr\\.ecr\\.${region}\\.amazonaws\\.com$`));
});

test("ECR: a wrong secret fails the signature check, an unknown key id is unrecognized", async () => {
  await assert.rejects(new ECRClient({ credentials: wrongSecret }).send(new GetAuthorizationTokenCommand({})),
    (err) => err.name === "InvalidSignatureException" && err.$metadata.httpStatusCode === 400);
  await assert.rejects(new ECRClient({ credentials: unknownKey }).send(new GetAuthorizationTokenCommand({})),
    (err) => err.name === "UnrecognizedClientException");
});

test("SigV4 as AWS checks it: the endpoint's region, and a clock within 15 minutes that the SDK corrects", async () => {
  const otherRegion = region === "eu-west-3" ? "eu-west-2" : "eu-west-3";
  await assert.rejects(new BedrockAgentCoreControlClient({ region: otherRegion })
    .send(new GetCodeInterpreterCommand({ codeInterpreterId: "aws.codeinterpreter.v1" })),
  (err) => err.name === "InvalidSignatureException" && err.message.startsWith("Credential should be scoped to a valid region"));

  const slow = { systemClockOffset: -20 * 60 * 1000 }; // signs 20 minutes in the past
  await assert.rejects(new ECRClient({ ...slow, maxAttempts: 1 }).send(new GetAuthorizationTokenCommand({})),
    (err) => err.name === "InvalidSignatureException" && err.message.startsWith("Signature expired: "));
  // The SDK takes the server's Date header, corrects its clock and retries.
  const out = await new ECRClient({ ...slow, maxAttempts: 2 }).send(new GetAuthorizationTokenCommand({}));
  assert.equal(out.$metadata.attempts, 2);
});

test("AgentCore GetCodeInterpreter: a seeded custom interpreter", async () => {
  const id = "conformance_ci-a1b2c3d4e5";
  await control(agentCoreURL, "PUT", `code-interpreters/${id}`, { status: "CREATE_FAILED", failureReason: "role validation failed" });
  const out = await new BedrockAgentCoreControlClient({}).send(new GetCodeInterpreterCommand({ codeInterpreterId: id }));
  assert.equal(out.codeInterpreterId, id);
  assert.equal(out.name, "conformance_ci");
  assert.equal(out.status, "CREATE_FAILED");
  assert.equal(out.failureReason, "role validation failed");
  assert.match(out.codeInterpreterArn, new RegExp(`^arn:aws:bedrock-agentcore:${region}:\\d{12}:code-interpreter/${id}$`));
  assert.ok(out.createdAt instanceof Date && !Number.isNaN(out.createdAt.getTime()), `createdAt is ${out.createdAt}`);
  assert.equal(out.networkConfiguration.networkMode, "PUBLIC");
});

test("AgentCore: a missing interpreter is ResourceNotFoundException (404)", async () => {
  const client = new BedrockAgentCoreControlClient({});
  await assert.rejects(client.send(new GetCodeInterpreterCommand({ codeInterpreterId: "missing-a1b2c3d4e5" })),
    (err) => err instanceof ResourceNotFoundException && err.$metadata.httpStatusCode === 404);
});

test("AgentCore: refused credentials", async () => {
  const get = (credentials) => new BedrockAgentCoreControlClient({ credentials })
    .send(new GetCodeInterpreterCommand({ codeInterpreterId: "missing-a1b2c3d4e5" }));
  await assert.rejects(get(wrongSecret), (err) => err.name === "InvalidSignatureException" && err.$metadata.httpStatusCode === 403);
  await assert.rejects(get(unknownKey), (err) => err.name === "UnrecognizedClientException" && err.$metadata.httpStatusCode === 403);
});

test("injected 5xx answers are retried by the SDK's standard retry strategy", async () => {
  await control(ecrURL, "POST", "faults", { count: 2, status: 503 });
  const out = await new ECRClient({ maxAttempts: 3 }).send(new GetAuthorizationTokenCommand({}));
  assert.equal(out.$metadata.attempts, 3);
});

test("injected throttling is AgentCore's modeled ThrottlingException (429), retried by the SDK", async () => {
  const id = "throttled-a1b2c3d4e5";
  await control(agentCoreURL, "PUT", `code-interpreters/${id}`, { status: "READY" });
  await control(agentCoreURL, "POST", "faults", { count: 1, status: 429 });
  await assert.rejects(new BedrockAgentCoreControlClient({ maxAttempts: 1 }).send(new GetCodeInterpreterCommand({ codeInterpreterId: id })),
    (err) => err instanceof ThrottlingException && err.$metadata.httpStatusCode === 429);
  await control(agentCoreURL, "POST", "faults", { count: 1, status: 429 });
  const out = await new BedrockAgentCoreControlClient({ maxAttempts: 3 }).send(new GetCodeInterpreterCommand({ codeInterpreterId: id }));
  assert.equal(out.status, "READY");
  assert.equal(out.$metadata.attempts, 2);
});

test("ECR throttling is a 400 ThrottlingException, retried by the SDK", async () => {
  await control(ecrURL, "POST", "faults", { count: 1, status: 429 });
  await assert.rejects(new ECRClient({ maxAttempts: 1 }).send(new GetAuthorizationTokenCommand({})),
    (err) => err.name === "ThrottlingException" && err.$metadata.httpStatusCode === 400);
  await control(ecrURL, "POST", "faults", { count: 1, status: 429 });
  const out = await new ECRClient({ maxAttempts: 3 }).send(new GetAuthorizationTokenCommand({}));
  assert.equal(out.$metadata.attempts, 2);
});

test("an injected fault can echo the request body in its message", async () => {
  await control(ecrURL, "POST", "faults", { count: 1, status: 500, echoBody: true });
  await assert.rejects(
    new ECRClient({ maxAttempts: 1 }).send(new GetAuthorizationTokenCommand({ registryIds: ["210987654321"] })),
    (err) => err.name === "ServerException" && err.message.includes('"registryIds":["210987654321"]'));
});
